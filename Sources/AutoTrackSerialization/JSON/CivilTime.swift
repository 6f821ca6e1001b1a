import AutoTrackEvents

/// A timestamp broken into proleptic-Gregorian calendar fields at a fixed UTC offset.
///
/// Uses the days-from-civil algorithm (H. Hinnant), exact for every `Int64`
/// millisecond value and independent of the machine's time zone database, so the same
/// event encodes identically everywhere.
struct CivilTime: Equatable {
    var year: Int64
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    var millisecond: Int

    init(year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
    }

    init(_ time: Timestamp, offsetSeconds: Int) {
        // Shift in a wide type: Int64.min/max plus an offset must not trap.
        let shifted = time.millisecondsSince1970.addingReportingOverflow(Int64(offsetSeconds) * 1000)
        let local = shifted.overflow
            ? (offsetSeconds > 0 ? Int64.max : Int64.min)
            : shifted.partialValue
        var days = local / 86_400_000
        var remainder = local % 86_400_000
        if remainder < 0 {
            remainder += 86_400_000
            days -= 1
        }
        millisecond = Int(remainder % 1000)
        let seconds = Int(remainder / 1000)
        second = seconds % 60
        minute = (seconds / 60) % 60
        hour = seconds / 3600

        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// The timestamp these fields denote at `offsetSeconds` east of UTC, or `nil` when
    /// a field is out of range (month 13, 31 April, hour 24 …).
    func timestamp(offsetSeconds: Int) -> Timestamp? {
        guard (1...12).contains(month), day >= 1, day <= CivilTime.daysIn(month: month, year: year),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
              (0...999).contains(millisecond)
        else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = Int64(hour * 3600 + minute * 60 + second)
        let local = days * 86_400_000 + seconds * 1000 + Int64(millisecond)
        return Timestamp(millisecondsSince1970: local - Int64(offsetSeconds) * 1000)
    }

    static func daysIn(month: Int, year: Int64) -> Int {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
