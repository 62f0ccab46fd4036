use gloo::timers::callback::Timeout;
use yew::prelude::*;

/// Emits `callback` once `value` has stopped changing for `delay_ms`.
/// A change inside the delay cancels the pending emission (the timeout is dropped).
#[hook]
pub fn use_debounce<T>(value: T, delay_ms: u32, callback: Callback<()>)
where
    T: PartialEq + 'static,
{
    use_effect_with(value, move |_| {
        let timeout = Timeout::new(delay_ms, move || callback.emit(()));
        move || drop(timeout)
    });
}
