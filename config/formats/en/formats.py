# English dates and times as the pages show them: a 24-hour clock, so no time ends in
# "a.m." and no sentence ending with one reads "3:09 a.m.." (Django's default is "P").
DATETIME_FORMAT = "N j, Y, H:i"
TIME_FORMAT = "H:i"
SHORT_DATETIME_FORMAT = "m/d/Y H:i"
