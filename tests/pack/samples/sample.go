// Package store DOC-COMMENT.
package store

import "strings" // PLAIN-COMMENT trailing

// URL is a DOC-COMMENT.
const URL = "http://x//not-a-comment"

// Load reads pairs. DOC-COMMENT.
func Load(lines []string, strict bool) ([][2]string, error) {
	result := [][2]string{}
	for _, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		// PLAIN-COMMENT nested
		if strings.HasPrefix(line, "//") {
			continue
		}
		parts := strings.SplitN(line, "=", 2)
		key := parts[0]
		value := ""
		if len(parts) > 1 {
			value = parts[1]
		}
		if strict && value == "" {
			return nil, fmt.Errorf("bad %s", key)
		}
		result = append(result, [2]string{key, value})
	}
	raw := `multi
    line // in raw string
	end`
	total := len(result)
	extra := total * 2
	fmt.Println(total, extra, raw)
	return result, nil
}
