/** Loader DOC-COMMENT. */
const URL: string = "http://x//not-a-comment"; // PLAIN-COMMENT trailing

// PLAIN-COMMENT own line
export function load(path: string, strict: boolean): Array<[string, string]> {
  const result: Array<[string, string]> = [];
  for (const raw of readLines(path)) {
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
  const total: number = result.length;
  let extra = total * 2;
  extra += 1;
  console.log(total, extra);
  return result;
}

interface Store {
  /** Get DOC-COMMENT. */
  get(key: string): string; // PLAIN-COMMENT
}
