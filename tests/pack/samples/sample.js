/**
 * Loader DOC-COMMENT.
 */
const URL = "http://x//not-a-comment"; // PLAIN-COMMENT trailing

// PLAIN-COMMENT own line
function load(path, strict) {
  const result = [];
  const lines = readLines(path); /* PLAIN-COMMENT block */
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) {
      continue;
    }
    if (line.startsWith("//")) {
      // PLAIN-COMMENT nested
      continue;
    }
    const parts = line.split("=");
    const key = parts[0];
    const value = parts.length > 1 ? parts[1] : "";
    if (strict && !value) {
      throw new Error(key);
    }
    result.push([key, value]);
  }
  const tpl = `multi
    line // in template
  end`;
  const total = result.length;
  let extra = total * 2;
  extra += 1;
  console.log(total, extra, tpl);
  return result;
}

class Store {
  /** Get DOC-COMMENT. */
  get(key) {
    return this.map[key]; // PLAIN-COMMENT
  }
}
