//! Dates as the API server writes them: RFC 3339 in UTC.
//!
//! One calendar for every timestamp the simulation writes (object metadata
//! and status), so two copies of the date arithmetic cannot disagree.

use super::workqueue::Millis;

/// `metav1.Time` as written, from the Unix epoch: whole seconds, as
/// apimachinery's `Time.MarshalJSON` formats with `time.RFC3339`
/// (`pkg/apis/meta/v1/time.go`). The milliseconds are dropped, not rounded.
pub fn time(at: Millis) -> String {
    let seconds = i64::try_from(at / 1_000).unwrap_or(i64::MAX / 2);
    let (year, month, day) = civil_from_days(seconds.div_euclid(86_400));
    let rest = seconds.rem_euclid(86_400);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3_600,
        rest % 3_600 / 60,
        rest % 60
    )
}

/// Howard Hinnant's `civil_from_days`: (year, month, day) of a day count from 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Howard Hinnant's `days_from_civil`, the inverse of [`civil_from_days`].
pub fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = year - i64::from(month <= 2);
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    /// apimachinery `pkg/apis/meta/v1/time_test.go`: `TestTimeMarshalJSON`'s
    /// 1998-05-05T05:05:05 with and without a fraction, and
    /// `TestTimeMarshalCBOR`'s "epoch" and "fractional seconds truncated".
    #[test]
    fn a_time_is_written_to_the_second_from_the_epoch() {
        let may_5 = u64::try_from(days_from_civil(1998, 5, 5)).expect("after 1970");
        let at = (may_5 * 86_400 + 5 * 3_600 + 5 * 60 + 5) * 1_000;
        assert_eq!(time(at), "1998-05-05T05:05:05Z");
        assert_eq!(time(at + 123), "1998-05-05T05:05:05Z", "truncated");
        assert_eq!(time(0), "1970-01-01T00:00:00Z");
        assert_eq!(time(999), "1970-01-01T00:00:00Z");
        // 2000 was a leap year: day 11,016 is 2000-02-29.
        assert_eq!(time(86_400_000 * 11_016), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn days_and_dates_are_inverse() {
        for days in [-1, 0, 59, 11_016, 20_454, 2_000_000] {
            let (year, month, day) = civil_from_days(days);
            assert_eq!(days_from_civil(year, month, day), days, "{days}");
        }
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
    }
}
