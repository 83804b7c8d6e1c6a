package dev.fincore;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A small strict JSON codec (RFC 8259), so the library needs nothing beyond the JDK. Values are
 * Map (insertion-ordered), List, String, Long (integers that fit), Double, Boolean and null.
 */
public final class Json {
  private Json() {}

  /** Thrown for text that is not JSON, or a value of the wrong shape for a model. */
  public static final class JsonException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public JsonException(String message) {
      super(message);
    }
  }

  public static Object parse(String text) {
    Parser parser = new Parser(text);
    parser.skipWhitespace();
    Object value = parser.value(0);
    parser.skipWhitespace();
    if (parser.pos != text.length()) throw new JsonException("unexpected text after the JSON value at " + parser.pos);
    return value;
  }

  public static String stringify(Object value) {
    StringBuilder out = new StringBuilder();
    write(out, value);
    return out.toString();
  }

  // Shape checks used by the generated models.

  @SuppressWarnings("unchecked")
  public static Map<String, Object> asObject(Object value) {
    if (value instanceof Map) return (Map<String, Object>) value;
    throw new JsonException("expected a JSON object, got " + describe(value));
  }

  public static String asString(Object value) {
    if (value instanceof String) return (String) value;
    throw new JsonException("expected a string, got " + describe(value));
  }

  public static Long asLong(Object value) {
    if (value instanceof Long) return (Long) value;
    if (value instanceof Double && ((Double) value) == Math.rint((Double) value) && Math.abs((Double) value) < 9.007199254740992E15) {
      return ((Double) value).longValue();
    }
    throw new JsonException("expected an integer, got " + describe(value));
  }

  public static Double asDouble(Object value) {
    if (value instanceof Number) return ((Number) value).doubleValue();
    throw new JsonException("expected a number, got " + describe(value));
  }

  public static Boolean asBoolean(Object value) {
    if (value instanceof Boolean) return (Boolean) value;
    throw new JsonException("expected a boolean, got " + describe(value));
  }

  public static <T> List<T> asList(Object value, Function<Object, T> item) {
    if (!(value instanceof List)) throw new JsonException("expected an array, got " + describe(value));
    List<T> out = new ArrayList<>();
    for (Object element : (List<?>) value) out.add(element == null ? null : item.apply(element));
    return out;
  }

  public static <T> Map<String, T> asMap(Object value, Function<Object, T> item) {
    Map<String, T> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> entry : asObject(value).entrySet()) {
      out.put(entry.getKey(), entry.getValue() == null ? null : item.apply(entry.getValue()));
    }
    return out;
  }

  public static <T> List<Object> fromList(List<T> value, Function<T, Object> item) {
    List<Object> out = new ArrayList<>();
    for (T element : value) out.add(element == null ? null : item.apply(element));
    return out;
  }

  public static <T> Map<String, Object> fromMap(Map<String, T> value, Function<T, Object> item) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, T> entry : value.entrySet()) {
      out.put(entry.getKey(), entry.getValue() == null ? null : item.apply(entry.getValue()));
    }
    return out;
  }

  private static String describe(Object value) {
    return value == null ? "null" : value.getClass().getSimpleName();
  }

  private static void write(StringBuilder out, Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String) {
      writeString(out, (String) value);
    } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer || value instanceof Short) {
      out.append(value);
    } else if (value instanceof Number) {
      double d = ((Number) value).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) throw new JsonException("JSON has no NaN or Infinity");
      if (d == Math.rint(d) && Math.abs(d) < 1e15) out.append((long) d);
      else out.append(d);
    } else if (value instanceof Map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
        if (!first) out.append(',');
        first = false;
        writeString(out, String.valueOf(entry.getKey()));
        out.append(':');
        write(out, entry.getValue());
      }
      out.append('}');
    } else if (value instanceof List) {
      out.append('[');
      boolean first = true;
      for (Object element : (List<?>) value) {
        if (!first) out.append(',');
        first = false;
        write(out, element);
      }
      out.append(']');
    } else {
      throw new JsonException("cannot write " + describe(value) + " as JSON");
    }
  }

  private static void writeString(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        case '\b': out.append("\\b"); break;
        case '\f': out.append("\\f"); break;
        default:
          if (c < 0x20 || Character.isSurrogate(c) && !validSurrogate(s, i)) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
      }
    }
    out.append('"');
  }

  private static boolean validSurrogate(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }

  private static final class Parser {
    private static final int MAX_DEPTH = 512;
    private final String text;
    private int pos;

    Parser(String text) {
      this.text = text;
    }

    void skipWhitespace() {
      while (pos < text.length()) {
        char c = text.charAt(pos);
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        pos++;
      }
    }

    private JsonException error(String what) {
      return new JsonException(what + " at offset " + pos);
    }

    Object value(int depth) {
      if (depth > MAX_DEPTH) throw error("nesting too deep");
      if (pos >= text.length()) throw error("unexpected end of input");
      char c = text.charAt(pos);
      switch (c) {
        case '{': return object(depth);
        case '[': return array(depth);
        case '"': return string();
        case 't': return literal("true", Boolean.TRUE);
        case 'f': return literal("false", Boolean.FALSE);
        case 'n': return literal("null", null);
        default:
          if (c == '-' || (c >= '0' && c <= '9')) return number();
          throw error("unexpected character '" + c + "'");
      }
    }

    private Object literal(String word, Object value) {
      if (!text.startsWith(word, pos)) throw error("invalid literal");
      pos += word.length();
      return value;
    }

    private Map<String, Object> object(int depth) {
      Map<String, Object> out = new LinkedHashMap<>();
      pos++;
      skipWhitespace();
      if (pos < text.length() && text.charAt(pos) == '}') {
        pos++;
        return out;
      }
      while (true) {
        skipWhitespace();
        if (pos >= text.length() || text.charAt(pos) != '"') throw error("expected a key");
        String key = string();
        skipWhitespace();
        if (pos >= text.length() || text.charAt(pos) != ':') throw error("expected ':'");
        pos++;
        skipWhitespace();
        out.put(key, value(depth + 1));
        skipWhitespace();
        if (pos >= text.length()) throw error("unterminated object");
        char c = text.charAt(pos++);
        if (c == '}') return out;
        if (c != ',') throw error("expected ',' or '}'");
      }
    }

    private List<Object> array(int depth) {
      List<Object> out = new ArrayList<>();
      pos++;
      skipWhitespace();
      if (pos < text.length() && text.charAt(pos) == ']') {
        pos++;
        return out;
      }
      while (true) {
        skipWhitespace();
        out.add(value(depth + 1));
        skipWhitespace();
        if (pos >= text.length()) throw error("unterminated array");
        char c = text.charAt(pos++);
        if (c == ']') return out;
        if (c != ',') throw error("expected ',' or ']'");
      }
    }

    private String string() {
      StringBuilder out = new StringBuilder();
      pos++;
      while (true) {
        if (pos >= text.length()) throw error("unterminated string");
        char c = text.charAt(pos++);
        if (c == '"') return out.toString();
        if (c < 0x20) throw error("control character in a string");
        if (c != '\\') {
          out.append(c);
          continue;
        }
        if (pos >= text.length()) throw error("unterminated escape");
        char e = text.charAt(pos++);
        switch (e) {
          case '"': out.append('"'); break;
          case '\\': out.append('\\'); break;
          case '/': out.append('/'); break;
          case 'b': out.append('\b'); break;
          case 'f': out.append('\f'); break;
          case 'n': out.append('\n'); break;
          case 'r': out.append('\r'); break;
          case 't': out.append('\t'); break;
          case 'u':
            if (pos + 4 > text.length()) throw error("short \\u escape");
            int code = 0;
            for (int i = 0; i < 4; i++) {
              int digit = Character.digit(text.charAt(pos++), 16);
              if (digit < 0) throw error("bad \\u escape");
              code = code * 16 + digit;
            }
            out.append((char) code);
            break;
          default:
            throw error("bad escape");
        }
      }
    }

    private Object number() {
      int start = pos;
      if (text.charAt(pos) == '-') pos++;
      if (pos >= text.length()) throw error("bad number");
      if (text.charAt(pos) == '0') {
        pos++;
      } else if (text.charAt(pos) >= '1' && text.charAt(pos) <= '9') {
        while (pos < text.length() && Character.isDigit(text.charAt(pos)) && text.charAt(pos) < 128) pos++;
      } else {
        throw error("bad number");
      }
      boolean integral = true;
      if (pos < text.length() && text.charAt(pos) == '.') {
        integral = false;
        pos++;
        int digits = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') pos++;
        if (pos == digits) throw error("bad fraction");
      }
      if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
        integral = false;
        pos++;
        if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) pos++;
        int digits = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') pos++;
        if (pos == digits) throw error("bad exponent");
      }
      String literal = text.substring(start, pos);
      if (integral && literal.length() <= 18) return Long.parseLong(literal);
      return Double.parseDouble(literal);
    }
  }
}
