use super::Exporter;
use crate::stats::Summary;

/// The `results/*.json` form: one summary object (an array when given several).
pub struct Json;

impl Exporter for Json {
    fn render(&self, summaries: &[Summary]) -> String {
        let text = match summaries {
            [one] => serde_json::to_string_pretty(one),
            many => serde_json::to_string_pretty(many),
        };
        text.expect("summaries serialise") + "\n"
    }
}
