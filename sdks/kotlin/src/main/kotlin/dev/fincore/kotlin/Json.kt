package dev.fincore.kotlin

/** Text that is not JSON, or a JSON value of the wrong shape for a model. */
class JsonException(message: String) : RuntimeException(message)

/**
 * A small strict JSON codec (RFC 8259), so the library needs nothing beyond the Kotlin runtime and
 * the JDK. Values are Map (insertion-ordered), List, String, Long (integers that fit), Double,
 * Boolean and null.
 */
object Json {
    fun parse(text: String): Any? {
        val parser = Parser(text)
        parser.skipWhitespace()
        val value = parser.value(0)
        parser.skipWhitespace()
        if (parser.pos != text.length) throw JsonException("unexpected text after the JSON value at ${parser.pos}")
        return value
    }

    fun stringify(value: Any?): String = StringBuilder().also { write(it, value) }.toString()

    // Shape checks used by the generated models.

    @Suppress("UNCHECKED_CAST")
    fun obj(value: Any?): Map<String, Any?> =
        value as? Map<String, Any?> ?: throw JsonException("expected a JSON object, got ${describe(value)}")

    fun required(json: Map<String, Any?>, key: String): Any =
        json[key] ?: throw JsonException("missing required key \"$key\"")

    fun string(value: Any?): String = value as? String ?: throw JsonException("expected a string, got ${describe(value)}")

    fun long(value: Any?): Long = when {
        value is Long -> value
        value is Double && value == Math.rint(value) && Math.abs(value) < 9.007199254740992E15 -> value.toLong()
        else -> throw JsonException("expected an integer, got ${describe(value)}")
    }

    fun double(value: Any?): Double = (value as? Number)?.toDouble() ?: throw JsonException("expected a number, got ${describe(value)}")

    fun boolean(value: Any?): Boolean = value as? Boolean ?: throw JsonException("expected a boolean, got ${describe(value)}")

    fun <T> list(value: Any?, item: (Any) -> T): List<T> {
        val elements = value as? List<*> ?: throw JsonException("expected an array, got ${describe(value)}")
        return elements.map { element -> item(element ?: throw JsonException("unexpected null in an array")) }
    }

    fun <T> map(value: Any?, item: (Any) -> T): Map<String, T> =
        obj(value).mapValues { (key, element) -> item(element ?: throw JsonException("unexpected null at \"$key\"")) }

    private fun describe(value: Any?): String = value?.javaClass?.simpleName ?: "null"

    private fun write(out: StringBuilder, value: Any?) {
        when (value) {
            null -> out.append("null")
            is String -> writeString(out, value)
            is Boolean, is Long, is Int, is Short -> out.append(value)
            is Number -> {
                val d = value.toDouble()
                if (d.isNaN() || d.isInfinite()) throw JsonException("JSON has no NaN or Infinity")
                if (d == Math.rint(d) && Math.abs(d) < 1e15) out.append(d.toLong()) else out.append(d)
            }
            is Map<*, *> -> {
                out.append('{')
                var first = true
                for ((key, element) in value) {
                    if (!first) out.append(',')
                    first = false
                    writeString(out, key.toString())
                    out.append(':')
                    write(out, element)
                }
                out.append('}')
            }
            is List<*> -> {
                out.append('[')
                value.forEachIndexed { i, element ->
                    if (i > 0) out.append(',')
                    write(out, element)
                }
                out.append(']')
            }
            else -> throw JsonException("cannot write ${describe(value)} as JSON")
        }
    }

    private fun writeString(out: StringBuilder, s: String) {
        out.append('"')
        for (c in s) {
            when (c) {
                '"' -> out.append("\\\"")
                '\\' -> out.append("\\\\")
                '\n' -> out.append("\\n")
                '\r' -> out.append("\\r")
                '\t' -> out.append("\\t")
                '\b' -> out.append("\\b")
                '\u000C' -> out.append("\\f")
                else -> if (c < ' ') out.append(String.format("\\u%04x", c.toInt())) else out.append(c)
            }
        }
        out.append('"')
    }

    private class Parser(private val text: String) {
        var pos = 0

        fun skipWhitespace() {
            while (pos < text.length && text[pos].let { it == ' ' || it == '\t' || it == '\n' || it == '\r' }) pos++
        }

        private fun error(what: String) = JsonException("$what at offset $pos")

        fun value(depth: Int): Any? {
            if (depth > 512) throw error("nesting too deep")
            if (pos >= text.length) throw error("unexpected end of input")
            val c = text[pos]
            return when {
                c == '{' -> obj(depth)
                c == '[' -> array(depth)
                c == '"' -> string()
                c == 't' -> literal("true", true)
                c == 'f' -> literal("false", false)
                c == 'n' -> literal("null", null)
                c == '-' || c in '0'..'9' -> number()
                else -> throw error("unexpected character '$c'")
            }
        }

        private fun literal(word: String, value: Any?): Any? {
            if (!text.startsWith(word, pos)) throw error("invalid literal")
            pos += word.length
            return value
        }

        private fun obj(depth: Int): Map<String, Any?> {
            val out = LinkedHashMap<String, Any?>()
            pos++
            skipWhitespace()
            if (pos < text.length && text[pos] == '}') {
                pos++
                return out
            }
            while (true) {
                skipWhitespace()
                if (pos >= text.length || text[pos] != '"') throw error("expected a key")
                val key = string()
                skipWhitespace()
                if (pos >= text.length || text[pos] != ':') throw error("expected ':'")
                pos++
                skipWhitespace()
                out[key] = value(depth + 1)
                skipWhitespace()
                if (pos >= text.length) throw error("unterminated object")
                when (text[pos++]) {
                    '}' -> return out
                    ',' -> Unit
                    else -> throw error("expected ',' or '}'")
                }
            }
        }

        private fun array(depth: Int): List<Any?> {
            val out = ArrayList<Any?>()
            pos++
            skipWhitespace()
            if (pos < text.length && text[pos] == ']') {
                pos++
                return out
            }
            while (true) {
                skipWhitespace()
                out.add(value(depth + 1))
                skipWhitespace()
                if (pos >= text.length) throw error("unterminated array")
                when (text[pos++]) {
                    ']' -> return out
                    ',' -> Unit
                    else -> throw error("expected ',' or ']'")
                }
            }
        }

        private fun string(): String {
            val out = StringBuilder()
            pos++
            while (true) {
                if (pos >= text.length) throw error("unterminated string")
                val c = text[pos++]
                when {
                    c == '"' -> return out.toString()
                    c < ' ' -> throw error("control character in a string")
                    c != '\\' -> out.append(c)
                    else -> {
                        if (pos >= text.length) throw error("unterminated escape")
                        when (text[pos++]) {
                            '"' -> out.append('"')
                            '\\' -> out.append('\\')
                            '/' -> out.append('/')
                            'b' -> out.append('\b')
                            'f' -> out.append('\u000C')
                            'n' -> out.append('\n')
                            'r' -> out.append('\r')
                            't' -> out.append('\t')
                            'u' -> {
                                if (pos + 4 > text.length) throw error("short \\u escape")
                                var code = 0
                                repeat(4) {
                                    val digit = Character.digit(text[pos++], 16)
                                    if (digit < 0) throw error("bad \\u escape")
                                    code = code * 16 + digit
                                }
                                out.append(code.toChar())
                            }
                            else -> throw error("bad escape")
                        }
                    }
                }
            }
        }

        private fun digits(): Int {
            val start = pos
            while (pos < text.length && text[pos] in '0'..'9') pos++
            return pos - start
        }

        private fun number(): Any {
            val start = pos
            if (text[pos] == '-') pos++
            when {
                pos < text.length && text[pos] == '0' -> pos++
                pos < text.length && text[pos] in '1'..'9' -> digits()
                else -> throw error("bad number")
            }
            var integral = true
            if (pos < text.length && text[pos] == '.') {
                integral = false
                pos++
                if (digits() == 0) throw error("bad fraction")
            }
            if (pos < text.length && (text[pos] == 'e' || text[pos] == 'E')) {
                integral = false
                pos++
                if (pos < text.length && (text[pos] == '+' || text[pos] == '-')) pos++
                if (digits() == 0) throw error("bad exponent")
            }
            val literal = text.substring(start, pos)
            return if (integral && literal.length <= 18) literal.toLong() else literal.toDouble()
        }
    }
}
