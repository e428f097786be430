use super::Exporter;
use crate::compare::Report;
use crate::stats::Summary;

/// The `results/*.json` form: one summary object (an array when given several).
pub struct Json;

impl Exporter<Summary> for Json {
    fn render(&self, summaries: &[Summary]) -> String {
        let text = match summaries {
            [one] => serde_json::to_string_pretty(one),
            many => serde_json::to_string_pretty(many),
        };
        text.expect("summaries serialise") + "\n"
    }
}

/// The `results/strategies.json` form: always a list, one comparison per game and variant.
impl Exporter<Report> for Json {
    fn render(&self, reports: &[Report]) -> String {
        serde_json::to_string_pretty(reports).expect("comparisons serialise") + "\n"
    }
}
