use gloo::timers::callback::Timeout;
use yew::prelude::*;

/// Emits `callback` for each change of `value`, coalescing bursts.
///
/// A change after `delay_ms` of quiet (a paste, the first keystroke after a
/// pause) emits at once (in the next task): waiting would only add latency,
/// since nothing else is coming. A change within `delay_ms` of the previous one (typing) waits
/// until `value` has stopped changing for `delay_ms`; a newer change cancels
/// the pending emission (the timeout is dropped), so the last change is always
/// emitted and a burst of keystrokes costs one emission after the first.
#[hook]
pub fn use_debounce<T>(value: T, delay_ms: u32, callback: Callback<()>)
where
    T: PartialEq + 'static,
{
    // When the value last changed (ms since the epoch); never, at first.
    let last_change = use_mut_ref(|| f64::NEG_INFINITY);
    use_effect_with(value, move |_| {
        let now = js_sys::Date::now();
        let quiet = now - last_change.replace(now) >= f64::from(delay_ms);
        // Even "at once" is a new task: a large edit's render and its check
        // then make two shorter tasks instead of one long one.
        let timeout = Timeout::new(if quiet { 0 } else { delay_ms }, move || callback.emit(()));
        move || drop(timeout)
    });
}
