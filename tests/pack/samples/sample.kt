import kotlin.collections.* // PLAIN-COMMENT trailing

/** Store DOC-COMMENT. */
class Store {
    private val url = "http://x//not-a-comment"

    // PLAIN-COMMENT own line
    /** Load DOC-COMMENT. */
    fun load(lines: List<String>, strict: Boolean): List<Pair<String, String>> {
        val result = mutableListOf<Pair<String, String>>()
        for (raw in lines) {
            val line = raw.trim()
            if (line.isEmpty()) {
                continue
            }
            /* PLAIN-COMMENT block */
            val parts = line.split("=", limit = 2)
            val key = parts[0]
            val value = if (parts.size > 1) parts[1] else ""
            if (strict && value.isEmpty()) {
                throw IllegalArgumentException(key)
            }
            result.add(key to value)
        }
        val text = """multi
            line // raw
            end"""
        val total = result.size
        val extra = total * 2
        println("$total $extra $text")
        return result
    }
}
