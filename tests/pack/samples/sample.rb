# frozen_string_literal: true

URL = "http://x/#not-a-comment" # PLAIN-COMMENT trailing

# Store DOC-COMMENT.
class Store
  # Load DOC-COMMENT.
  def load(lines, strict: false)
    result = []
    lines.each do |raw|
      line = raw.strip
      next if line.empty?

      # PLAIN-COMMENT nested
      key, value = line.split("=", 2)
      value ||= ""
      if strict && value.empty?
        raise ArgumentError, key
      end
      result << [key, value]
    end
    text = <<~EOS
      multi # in heredoc
        line
    EOS
    total = result.size
    extra = total * 2
    puts total, extra, text
    result
  end
end
