//! Where "Your reconcile" goes in the layout: the element its module renders
//! into, with its loading line (`on_demand_host`).

use yew::prelude::*;

use super::on_demand_host::on_demand_host;
use crate::hooks::OnDemand;

pub fn exercise_host(open: bool, pane: &OnDemand) -> Html {
    on_demand_host(open, pane, "Your reconcile", "pane exercise-loading")
}
