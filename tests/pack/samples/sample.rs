//! Crate DOC-COMMENT.
use std::collections::HashMap; // PLAIN-COMMENT trailing

/// Parse DOC-COMMENT.
pub fn load(lines: &[&str], strict: bool) -> Result<Vec<(String, String)>, String> {
    let mut result = Vec::new();
    let url = "http://x//not-a-comment";
    // PLAIN-COMMENT own line
    for raw in lines {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let parts: Vec<&str> = line.splitn(2, '=').collect();
        let key = parts[0].to_string();
        let value = if parts.len() > 1 { parts[1].to_string() } else { String::new() };
        if strict && value.is_empty() {
            return Err(key); /* PLAIN-COMMENT block */
        }
        result.push((key, value));
    }
    let raw = r#"multi
    line // in raw
    end"#;
    let total = result.len();
    let extra = total * 2;
    println!("{} {} {} {}", total, extra, url, raw);
    Ok(result)
}

impl Store {
    /// Get DOC-COMMENT.
    fn get(&self, key: &str) -> Option<&String> {
        self.map.get(key) // PLAIN-COMMENT
    }
}
