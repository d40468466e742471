/** View DOC-COMMENT. */
import React from "react"; // PLAIN-COMMENT trailing

// PLAIN-COMMENT own line
export function View(props: { items: string[]; title: string }) {
  const url = "http://x//not-a-comment";
  const items = props.items.filter((x) => x.length > 0);
  const count = items.length;
  let label = props.title;
  if (count === 0) {
    // PLAIN-COMMENT nested
    return <p>empty</p>;
  }
  if (count > 10) {
    label = label + " (many)";
  }
  const rows = items.map((item) => <li key={item}>{item}</li>);
  const extra = count * 2;
  console.log(extra, url);
  return (
    <div>
      {/* PLAIN-COMMENT jsx */}
      <h1>{label}</h1>
      <ul>{rows}</ul>
    </div>
  );
}
