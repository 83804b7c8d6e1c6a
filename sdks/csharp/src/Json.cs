using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Fincore
{
    /// <summary>Text that is not JSON, or a JSON value of the wrong shape for a model.</summary>
    public sealed class JsonException : Exception
    {
        public JsonException(string message) : base(message) { }
    }

    /// <summary>
    /// A small strict JSON codec (RFC 8259), so the library needs nothing beyond the base class library.
    /// Values are Dictionary&lt;string, object&gt;, List&lt;object&gt;, string, long (integers that fit),
    /// double, bool and null.
    /// </summary>
    public static class Json
    {
        public static object Parse(string text)
        {
            var parser = new Parser(text);
            parser.SkipWhitespace();
            var value = parser.Value(0);
            parser.SkipWhitespace();
            if (parser.Pos != text.Length) throw new JsonException("unexpected text after the JSON value at " + parser.Pos);
            return value;
        }

        public static string Stringify(object value)
        {
            var output = new StringBuilder();
            Write(output, value);
            return output.ToString();
        }

        // Shape checks used by the generated models.

        public static Dictionary<string, object> AsObject(object value)
        {
            var map = value as Dictionary<string, object>;
            if (map == null) throw new JsonException("expected a JSON object, got " + Describe(value));
            return map;
        }

        public static object Required(Dictionary<string, object> json, string key)
        {
            object value;
            if (!json.TryGetValue(key, out value) || value == null) throw new JsonException("missing required key \"" + key + "\"");
            return value;
        }

        public static string AsString(object value)
        {
            var text = value as string;
            if (text == null) throw new JsonException("expected a string, got " + Describe(value));
            return text;
        }

        public static long AsLong(object value)
        {
            if (value is long) return (long)value;
            if (value is double)
            {
                var d = (double)value;
                if (d == Math.Floor(d) && Math.Abs(d) < 9.007199254740992E15) return (long)d;
            }
            throw new JsonException("expected an integer, got " + Describe(value));
        }

        public static double AsDouble(object value)
        {
            if (value is long) return (long)value;
            if (value is double) return (double)value;
            throw new JsonException("expected a number, got " + Describe(value));
        }

        public static bool AsBool(object value)
        {
            if (value is bool) return (bool)value;
            throw new JsonException("expected a boolean, got " + Describe(value));
        }

        public static List<T> AsList<T>(object value, Func<object, T> item)
        {
            var list = value as List<object>;
            if (list == null) throw new JsonException("expected an array, got " + Describe(value));
            var result = new List<T>(list.Count);
            foreach (var element in list) result.Add(item(element));
            return result;
        }

        public static Dictionary<string, T> AsDictionary<T>(object value, Func<object, T> item)
        {
            var result = new Dictionary<string, T>();
            foreach (var entry in AsObject(value)) result[entry.Key] = item(entry.Value);
            return result;
        }

        public static List<object> FromList<T>(List<T> value, Func<T, object> item)
        {
            var result = new List<object>(value.Count);
            foreach (var element in value) result.Add(item(element));
            return result;
        }

        public static Dictionary<string, object> FromDictionary<T>(Dictionary<string, T> value, Func<T, object> item)
        {
            var result = new Dictionary<string, object>();
            foreach (var entry in value) result[entry.Key] = item(entry.Value);
            return result;
        }

        private static string Describe(object value) => value == null ? "null" : value.GetType().Name;

        private static void Write(StringBuilder output, object value)
        {
            if (value == null) { output.Append("null"); return; }
            var text = value as string;
            if (text != null) { WriteString(output, text); return; }
            if (value is bool) { output.Append((bool)value ? "true" : "false"); return; }
            if (value is long || value is int || value is short)
            {
                output.Append(Convert.ToInt64(value).ToString(CultureInfo.InvariantCulture));
                return;
            }
            if (value is double || value is float || value is decimal)
            {
                var d = Convert.ToDouble(value, CultureInfo.InvariantCulture);
                if (double.IsNaN(d) || double.IsInfinity(d)) throw new JsonException("JSON has no NaN or Infinity");
                output.Append(d == Math.Floor(d) && Math.Abs(d) < 1e15 ? ((long)d).ToString(CultureInfo.InvariantCulture) : d.ToString("R", CultureInfo.InvariantCulture));
                return;
            }
            var map = value as System.Collections.IDictionary;
            if (map != null)
            {
                output.Append('{');
                var first = true;
                foreach (System.Collections.DictionaryEntry entry in map)
                {
                    if (!first) output.Append(',');
                    first = false;
                    WriteString(output, Convert.ToString(entry.Key, CultureInfo.InvariantCulture));
                    output.Append(':');
                    Write(output, entry.Value);
                }
                output.Append('}');
                return;
            }
            var list = value as System.Collections.IEnumerable;
            if (list != null)
            {
                output.Append('[');
                var first = true;
                foreach (var element in list)
                {
                    if (!first) output.Append(',');
                    first = false;
                    Write(output, element);
                }
                output.Append(']');
                return;
            }
            throw new JsonException("cannot write " + Describe(value) + " as JSON");
        }

        private static void WriteString(StringBuilder output, string s)
        {
            output.Append('"');
            foreach (var c in s)
            {
                switch (c)
                {
                    case '"': output.Append("\\\""); break;
                    case '\\': output.Append("\\\\"); break;
                    case '\n': output.Append("\\n"); break;
                    case '\r': output.Append("\\r"); break;
                    case '\t': output.Append("\\t"); break;
                    case '\b': output.Append("\\b"); break;
                    case '\f': output.Append("\\f"); break;
                    default:
                        if (c < ' ') output.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else output.Append(c);
                        break;
                }
            }
            output.Append('"');
        }

        private sealed class Parser
        {
            private readonly string text;
            public int Pos;

            public Parser(string text)
            {
                this.text = text;
            }

            public void SkipWhitespace()
            {
                while (Pos < text.Length && (text[Pos] == ' ' || text[Pos] == '\t' || text[Pos] == '\n' || text[Pos] == '\r')) Pos++;
            }

            private JsonException Error(string what) => new JsonException(what + " at offset " + Pos);

            public object Value(int depth)
            {
                if (depth > 512) throw Error("nesting too deep");
                if (Pos >= text.Length) throw Error("unexpected end of input");
                var c = text[Pos];
                switch (c)
                {
                    case '{': return Object(depth);
                    case '[': return Array(depth);
                    case '"': return String();
                    case 't': return Literal("true", true);
                    case 'f': return Literal("false", false);
                    case 'n': return Literal("null", null);
                }
                if (c == '-' || (c >= '0' && c <= '9')) return Number();
                throw Error("unexpected character '" + c + "'");
            }

            private object Literal(string word, object value)
            {
                if (string.CompareOrdinal(text, Pos, word, 0, word.Length) != 0) throw Error("invalid literal");
                Pos += word.Length;
                return value;
            }

            private Dictionary<string, object> Object(int depth)
            {
                var result = new Dictionary<string, object>();
                Pos++;
                SkipWhitespace();
                if (Pos < text.Length && text[Pos] == '}') { Pos++; return result; }
                while (true)
                {
                    SkipWhitespace();
                    if (Pos >= text.Length || text[Pos] != '"') throw Error("expected a key");
                    var key = String();
                    SkipWhitespace();
                    if (Pos >= text.Length || text[Pos] != ':') throw Error("expected ':'");
                    Pos++;
                    SkipWhitespace();
                    result[key] = Value(depth + 1);
                    SkipWhitespace();
                    if (Pos >= text.Length) throw Error("unterminated object");
                    var c = text[Pos++];
                    if (c == '}') return result;
                    if (c != ',') throw Error("expected ',' or '}'");
                }
            }

            private List<object> Array(int depth)
            {
                var result = new List<object>();
                Pos++;
                SkipWhitespace();
                if (Pos < text.Length && text[Pos] == ']') { Pos++; return result; }
                while (true)
                {
                    SkipWhitespace();
                    result.Add(Value(depth + 1));
                    SkipWhitespace();
                    if (Pos >= text.Length) throw Error("unterminated array");
                    var c = text[Pos++];
                    if (c == ']') return result;
                    if (c != ',') throw Error("expected ',' or ']'");
                }
            }

            private string String()
            {
                var result = new StringBuilder();
                Pos++;
                while (true)
                {
                    if (Pos >= text.Length) throw Error("unterminated string");
                    var c = text[Pos++];
                    if (c == '"') return result.ToString();
                    if (c < ' ') throw Error("control character in a string");
                    if (c != '\\') { result.Append(c); continue; }
                    if (Pos >= text.Length) throw Error("unterminated escape");
                    var e = text[Pos++];
                    switch (e)
                    {
                        case '"': result.Append('"'); break;
                        case '\\': result.Append('\\'); break;
                        case '/': result.Append('/'); break;
                        case 'b': result.Append('\b'); break;
                        case 'f': result.Append('\f'); break;
                        case 'n': result.Append('\n'); break;
                        case 'r': result.Append('\r'); break;
                        case 't': result.Append('\t'); break;
                        case 'u':
                            if (Pos + 4 > text.Length) throw Error("short \\u escape");
                            var code = 0;
                            for (var i = 0; i < 4; i++)
                            {
                                var h = text[Pos++];
                                int digit = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                                if (digit < 0) throw Error("bad \\u escape");
                                code = code * 16 + digit;
                            }
                            result.Append((char)code);
                            break;
                        default:
                            throw Error("bad escape");
                    }
                }
            }

            private int Digits()
            {
                var start = Pos;
                while (Pos < text.Length && text[Pos] >= '0' && text[Pos] <= '9') Pos++;
                return Pos - start;
            }

            private object Number()
            {
                var start = Pos;
                if (text[Pos] == '-') Pos++;
                if (Pos < text.Length && text[Pos] == '0') Pos++;
                else if (Pos < text.Length && text[Pos] >= '1' && text[Pos] <= '9') Digits();
                else throw Error("bad number");
                var integral = true;
                if (Pos < text.Length && text[Pos] == '.')
                {
                    integral = false;
                    Pos++;
                    if (Digits() == 0) throw Error("bad fraction");
                }
                if (Pos < text.Length && (text[Pos] == 'e' || text[Pos] == 'E'))
                {
                    integral = false;
                    Pos++;
                    if (Pos < text.Length && (text[Pos] == '+' || text[Pos] == '-')) Pos++;
                    if (Digits() == 0) throw Error("bad exponent");
                }
                var literal = text.Substring(start, Pos - start);
                if (integral && literal.Length <= 18) return long.Parse(literal, CultureInfo.InvariantCulture);
                // Like JavaScript, a number too large for a double becomes Infinity.
                double parsed;
                if (!double.TryParse(literal, NumberStyles.Float, CultureInfo.InvariantCulture, out parsed)) parsed = literal[0] == '-' ? double.NegativeInfinity : double.PositiveInfinity;
                return parsed;
            }
        }
    }
}
