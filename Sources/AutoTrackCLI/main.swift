print("autotrack")
