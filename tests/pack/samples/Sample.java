import java.util.*; // PLAIN-COMMENT trailing

/** Store DOC-COMMENT. */
public class Sample {
    private static final String URL = "http://x//not-a-comment";

    // PLAIN-COMMENT own line
    /** Load DOC-COMMENT. */
    public List<String[]> load(List<String> lines, boolean strict) {
        List<String[]> result = new ArrayList<>();
        for (String raw : lines) {
            String line = raw.trim();
            if (line.isEmpty()) {
                continue;
            }
            /* PLAIN-COMMENT block */
            String[] parts = line.split("=", 2);
            String key = parts[0];
            String value = parts.length > 1 ? parts[1] : "";
            if (strict && value.isEmpty()) {
                throw new IllegalArgumentException(key);
            }
            result.add(new String[] {key, value});
        }
        String text = """
            multi // text block
            end""";
        int total = result.size();
        int extra = total * 2;
        System.out.println(total + extra + text);
        return result;
    }
}
