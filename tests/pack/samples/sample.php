<?php
// PLAIN-COMMENT own line
/** Store DOC-COMMENT. */
class Store
{
    const URL = "http://x//not-a-comment#also"; # PLAIN-COMMENT hash

    /** Load DOC-COMMENT. */
    public function load(array $lines, bool $strict): array
    {
        $result = [];
        foreach ($lines as $raw) {
            $line = trim($raw);
            if ($line === '') {
                continue;
            }
            // PLAIN-COMMENT nested
            $parts = explode('=', $line, 2);
            $key = $parts[0];
            $value = $parts[1] ?? '';
            if ($strict && $value === '') {
                throw new InvalidArgumentException($key);
            }
            $result[] = [$key, $value];
        }
        $text = <<<EOT
            multi // heredoc
            end
            EOT;
        $total = count($result);
        $extra = $total * 2;
        echo $total, $extra, $text;
        return $result;
    }
}
