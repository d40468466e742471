using System; // PLAIN-COMMENT trailing
using System.Collections.Generic;

/// <summary>Store DOC-COMMENT.</summary>
public class Store
{
    private const string Url = "http://x//not-a-comment";

    // PLAIN-COMMENT own line
    /// <summary>Load DOC-COMMENT.</summary>
    public List<string[]> Load(List<string> lines, bool strict)
    {
        var result = new List<string[]>();
        foreach (var raw in lines)
        {
            var line = raw.Trim();
            if (line.Length == 0)
            {
                continue;
            }
            /* PLAIN-COMMENT block */
            var parts = line.Split('=', 2);
            var key = parts[0];
            var value = parts.Length > 1 ? parts[1] : "";
            if (strict && value.Length == 0)
            {
                throw new ArgumentException(key);
            }
            result.Add(new[] { key, value });
        }
        var text = @"multi
    line // verbatim
    end";
        var total = result.Count;
        var extra = total * 2;
        Console.WriteLine(total + extra + text);
        return result;
    }
}
