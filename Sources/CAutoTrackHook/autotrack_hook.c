/* The interface of hook libraries is this target's header alone (include/autotrack_hook.h). */
