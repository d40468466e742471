import scala.collection.mutable // PLAIN-COMMENT trailing

/** Store DOC-COMMENT. */
class Store {
  val url = "http://x//not-a-comment"

  // PLAIN-COMMENT own line
  /** Load DOC-COMMENT. */
  def load(lines: Seq[String], strict: Boolean): Seq[(String, String)] = {
    val result = mutable.ArrayBuffer.empty[(String, String)]
    for (raw <- lines) {
      val line = raw.trim
      if (line.nonEmpty) {
        /* PLAIN-COMMENT block */
        val parts = line.split("=", 2)
        val key = parts(0)
        val value = if (parts.length > 1) parts(1) else ""
        if (strict && value.isEmpty) {
          throw new IllegalArgumentException(key)
        }
        result += ((key, value))
      }
    }
    val text = """multi
      line // raw
      end"""
    val total = result.size
    val extra = total * 2
    println(s"$total $extra $text")
    result.toSeq
  }
}
