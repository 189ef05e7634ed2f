#!/usr/bin/env python3
"""Sun times by astral 3 (PyPI `astral`), as a Fieldtest `sun` system.

    echo '…' | python3 Examples/systems/sun_astral.py      # or --system sun='python3 …'

Sunrise/sunset at the standard −0.833° (astral's default), civil twilight at −6°, noon; golden
hour as astral defines it (Sun between −4° and +6°). Polar days and nights: astral raises, and the
answer has null times with note polar_day or polar_night by the Sun's noon elevation.
"""
import datetime
import os
import sys
import zoneinfo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib.metadata import version  # noqa: E402

from astral import Observer, SunDirection  # noqa: E402
from astral import sun as s  # noqa: E402
from protocol import serve  # noqa: E402


def iso(t):
    return t.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") if t else None


def times(row):
    observer = Observer(latitude=row["latitude"], longitude=row["longitude"])
    date = datetime.date.fromisoformat(row["date"])
    zone = zoneinfo.ZoneInfo(row["timezone"])

    def event(f, *args):
        try:
            return f(observer, date, *args, tzinfo=zone)
        except ValueError:  # the Sun does not reach that elevation this date
            return None

    rise, set_ = event(s.sunrise), event(s.sunset)
    morning = event(s.golden_hour, SunDirection.RISING) or (None, None)
    evening = event(s.golden_hour, SunDirection.SETTING) or (None, None)
    noon = s.noon(observer, date, tzinfo=zone)
    note = ""
    if rise is None and set_ is None:
        note = "polar_day" if s.elevation(observer, noon) > 0 else "polar_night"
    day = (set_ - rise).total_seconds() if rise and set_ else (86400 if note == "polar_day" else 0)
    return {"sunrise": iso(rise), "sunset": iso(set_), "solar_noon": iso(noon),
            "civil_dawn": iso(event(s.dawn)), "civil_dusk": iso(event(s.dusk)),
            "golden_hour_morning_start": iso(morning[0]), "golden_hour_morning_end": iso(morning[1]),
            "golden_hour_evening_start": iso(evening[0]), "golden_hour_evening_end": iso(evening[1]),
            "day_length_s": round(day), "note": note}


if __name__ == "__main__":
    serve("sun", "astral", version("astral"), times)
