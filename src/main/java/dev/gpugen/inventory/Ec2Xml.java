package dev.gpugen.inventory;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.xml.stream.XMLStreamException;

/**
 * A strict reader of the XML documents EC2's Query API answers with (UTF-8, elements, text,
 * attributes that are skipped), moving from tag to tag over the bytes of one response.
 *
 * <p>It is the part of an XML parser these documents need, written for the bytes: tag names are
 * compared as bytes and only the text that is asked for becomes a string, so a 16,000-instance
 * listing decodes the few fields it keeps instead of all 28 MB (a general StAX parser took most of
 * a cold run's CPU for that). Cloud data is hostile, so what it accepts is a subset of well-formed
 * XML 1.0 (https://www.w3.org/TR/xml/): no document type declaration (so no entity but the five
 * predefined ones and character references, and no expansion), an end tag must close the element it
 * ends, no text where a tag is expected (mixed content), no element inside a value, characters XML
 * forbids (controls, a reference to one, {@code ]]>} in text, a bare {@code &} or {@code <}) and
 * malformed UTF-8 in a value are errors. Line ends in text are normalised as XML says (CR LF and CR
 * become LF). Namespaces are not resolved: a name is compared by its local part, as the inventory
 * always did.
 */
final class Ec2Xml {
  private final byte[] doc;
  private final int end;
  private int pos;

  /** The current tag: its local name's range, and whether it is an end tag. */
  private int nameStart;

  private int nameEnd;
  private boolean endTag;

  /** A {@code <x/>} was read: its end tag comes next, without bytes of its own. */
  private boolean pendingEnd;

  /** The open elements' local names, outermost first, as ranges of {@link #doc}. */
  private int[] open = new int[32];

  private int depth;

  /** Reads {@code doc[0..length)}; a byte order mark and the XML declaration are skipped. */
  Ec2Xml(byte[] doc, int length) throws XMLStreamException {
    this.doc = doc;
    this.end = length;
    if (length >= 3
        && (doc[0] & 0xFF) == 0xEF
        && (doc[1] & 0xFF) == 0xBB
        && (doc[2] & 0xFF) == 0xBF) {
      pos = 3;
    }
    if (startsWith("<?xml") && pos + 5 < end && isSpace(doc[pos + 5])) {
      int close = indexOf("?>", pos);
      String declaration = new String(doc, pos, close - pos, StandardCharsets.ISO_8859_1);
      int enc = declaration.indexOf("encoding");
      if (enc >= 0) {
        String rest = declaration.substring(enc + 8).replaceAll("^\\s*=\\s*['\"]", "");
        if (!rest.regionMatches(true, 0, "UTF-8", 0, 5)
            || (rest.length() > 5 && rest.charAt(5) != '"' && rest.charAt(5) != '\'')) {
          throw error("the document is not UTF-8");
        }
      }
      pos = close + 2;
    }
  }

  /**
   * Moves to the next start or end tag and says which: true for a start tag. Whitespace, comments
   * and processing instructions are passed over; anything else before the tag is an error.
   */
  boolean nextTag() throws XMLStreamException {
    if (pendingEnd) {
      pendingEnd = false;
      endTag = true;
      return false;
    }
    while (true) {
      skipSpace();
      if (pos >= end) {
        throw error(depth == 0 ? "the document is empty" : "the document ends inside an element");
      }
      if (doc[pos] != '<') {
        throw error("text where a tag was expected");
      }
      if (startsWith("<!--")) {
        skipComment();
      } else if (startsWith("<?")) {
        skipInstruction();
      } else if (startsWith("<!")) {
        throw error("a document type declaration or CDATA section where a tag was expected");
      } else {
        return tag();
      }
    }
  }

  /** The current tag's local name is {@code name} (ASCII). */
  boolean is(String name) {
    int n = nameEnd - nameStart;
    if (n != name.length()) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (doc[nameStart + i] != name.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** The current tag's local name, for messages. */
  String name() {
    return new String(doc, nameStart, nameEnd - nameStart, StandardCharsets.UTF_8);
  }

  /**
   * At a start tag: its text, through its end tag (which is consumed). An element inside it is an
   * error; comments and processing instructions are left out and CDATA sections taken as they are.
   */
  String text() throws XMLStreamException {
    if (endTag) {
      throw error("text asked for at an end tag");
    }
    if (pendingEnd) {
      pendingEnd = false;
      endTag = true;
      return "";
    }
    int start = pos;
    boolean plain = true;
    // Fast path: ASCII text without references, CR or markup is the string of its bytes.
    while (pos < end) {
      byte b = doc[pos];
      if (b == '<') {
        break;
      }
      if (b < 0x20 || b == '&' || b == '>' || b < 0) {
        plain = false;
        break;
      }
      pos++;
    }
    if (plain && pos < end && pos + 1 < end && doc[pos + 1] == '/') {
      String text = new String(doc, start, pos - start, StandardCharsets.ISO_8859_1);
      if (tag()) {
        throw error("an element inside a value");
      }
      return text;
    }
    pos = start;
    StringBuilder text = new StringBuilder();
    while (true) {
      if (pos >= end) {
        throw error("the document ends inside an element");
      }
      byte b = doc[pos];
      if (b == '<') {
        if (startsWith("<!--")) {
          skipComment();
        } else if (startsWith("<?")) {
          skipInstruction();
        } else if (startsWith("<![CDATA[")) {
          int close = indexOf("]]>", pos + 9);
          appendUtf8(text, pos + 9, close);
          pos = close + 3;
        } else if (startsWith("<!")) {
          throw error("a declaration inside a value");
        } else if (!tag()) {
          return text.toString();
        } else {
          throw error("an element inside a value");
        }
      } else {
        int stop = pos;
        while (stop < end && doc[stop] != '<') {
          stop++;
        }
        characters(text, pos, stop);
        pos = stop;
      }
    }
  }

  /** At a start tag: passes over the element and all it holds, through its end tag. */
  void skip() throws XMLStreamException {
    if (endTag) {
      throw error("skip asked for at an end tag");
    }
    if (pendingEnd) {
      pendingEnd = false;
      endTag = true;
      return;
    }
    int target = depth - 1;
    while (depth > target) {
      if (pendingEnd) {
        nextTag();
        continue;
      }
      int lt = pos;
      while (lt < end && doc[lt] != '<') {
        if (doc[lt] == '&') {
          pos = lt;
          reference(null);
          lt = pos;
          continue;
        }
        if (doc[lt] == '>' && lt >= 2 && doc[lt - 1] == ']' && doc[lt - 2] == ']') {
          pos = lt;
          throw error("']]>' in text");
        }
        if (doc[lt] >= 0 && doc[lt] < 0x20 && !isSpace(doc[lt])) {
          pos = lt;
          throw error("a character XML does not allow");
        }
        lt++;
      }
      pos = lt;
      if (pos >= end) {
        throw error("the document ends inside an element");
      }
      if (startsWith("<!--")) {
        skipComment();
      } else if (startsWith("<?")) {
        skipInstruction();
      } else if (startsWith("<![CDATA[")) {
        pos = indexOf("]]>", pos + 9) + 3;
      } else if (startsWith("<!")) {
        throw error("a declaration inside an element");
      } else {
        tag();
      }
    }
  }

  /** Reads the tag at {@code pos} ({@code <name ...>}, {@code <name .../>} or {@code </name>}). */
  private boolean tag() throws XMLStreamException {
    pos++;
    endTag = pos < end && doc[pos] == '/';
    if (endTag) {
      pos++;
    }
    int qname = pos;
    readName();
    int qnameEnd = pos;
    int colon = -1;
    for (int i = qname; i < qnameEnd; i++) {
      if (doc[i] == ':') {
        if (colon >= 0 || i == qname || i == qnameEnd - 1) {
          throw error("a malformed name");
        }
        colon = i;
      }
    }
    nameStart = colon < 0 ? qname : colon + 1;
    nameEnd = qnameEnd;
    if (endTag) {
      skipSpace();
      expect('>');
      if (depth == 0
          || !Arrays.equals(doc, open[2 * depth - 2], open[2 * depth - 1], doc, qname, qnameEnd)) {
        throw error("an end tag that closes no open element");
      }
      depth--;
      return false;
    }
    attributes();
    if (doc[pos] == '/') {
      pos++;
      expect('>');
      pendingEnd = true;
    } else {
      expect('>');
      if (2 * depth + 2 > open.length) {
        open = Arrays.copyOf(open, open.length * 2);
      }
      open[2 * depth] = qname;
      open[2 * depth + 1] = qnameEnd;
      depth++;
    }
    return true;
  }

  private void readName() throws XMLStreamException {
    int start = pos;
    while (pos < end) {
      byte b = doc[pos];
      boolean ok =
          (b >= 'a' && b <= 'z')
              || (b >= 'A' && b <= 'Z')
              || b == '_'
              || b == ':'
              || b < 0
              || (pos > start && ((b >= '0' && b <= '9') || b == '-' || b == '.'));
      if (!ok) {
        break;
      }
      pos++;
    }
    if (pos == start) {
      throw error("a tag without a name");
    }
  }

  /** Attributes up to {@code >} or {@code />}: each a name, {@code =} and a quoted value. */
  private void attributes() throws XMLStreamException {
    while (true) {
      boolean spaced = skipSpace();
      if (pos >= end) {
        throw error("the document ends inside a tag");
      }
      if (doc[pos] == '>' || doc[pos] == '/') {
        return;
      }
      if (!spaced) {
        throw error("attributes not separated by whitespace");
      }
      readName();
      skipSpace();
      expect('=');
      skipSpace();
      if (pos >= end || (doc[pos] != '"' && doc[pos] != '\'')) {
        throw error("an attribute value without quotes");
      }
      byte quote = doc[pos++];
      while (pos < end && doc[pos] != quote) {
        if (doc[pos] == '<') {
          throw error("'<' in an attribute value");
        }
        if (doc[pos] == '&') {
          reference(null);
        } else {
          pos++;
        }
      }
      if (pos >= end) {
        throw error("the document ends inside an attribute value");
      }
      pos++;
    }
  }

  /** Text from {@code from} to {@code to}, references resolved and line ends normalised. */
  private void characters(StringBuilder text, int from, int to) throws XMLStreamException {
    pos = from;
    int run = from;
    while (pos < to) {
      byte b = doc[pos];
      if (b == '&') {
        appendUtf8(text, run, pos);
        reference(text);
        run = pos;
      } else if (b == '>' && pos - from >= 2 && doc[pos - 1] == ']' && doc[pos - 2] == ']') {
        throw error("']]>' in text");
      } else {
        pos++;
      }
    }
    appendUtf8(text, run, to);
    pos = to;
  }

  /**
   * The reference at {@code pos} ({@code &lt;} ... {@code &#xHH;}), appended to {@code text} if it
   * is not null.
   */
  private void reference(StringBuilder text) throws XMLStreamException {
    int semi = pos + 1;
    while (semi < end && semi - pos <= 12 && doc[semi] != ';') {
      semi++;
    }
    if (semi >= end || doc[semi] != ';') {
      throw error("a bare '&' (not a reference)");
    }
    String ref = new String(doc, pos + 1, semi - pos - 1, StandardCharsets.ISO_8859_1);
    int c;
    switch (ref) {
      case "lt" -> c = '<';
      case "gt" -> c = '>';
      case "amp" -> c = '&';
      case "quot" -> c = '"';
      case "apos" -> c = '\'';
      default -> {
        if (!ref.startsWith("#") || ref.length() < 2) {
          throw error("an entity other than the five of XML: &" + Ec2Failures.clip(ref) + ";");
        }
        try {
          c =
              ref.charAt(1) == 'x'
                  ? Integer.parseInt(ref.substring(2), 16)
                  : Integer.parseInt(ref.substring(1), 10);
        } catch (NumberFormatException e) {
          throw error("a malformed character reference");
        }
        if (ref.length() < 3 && ref.charAt(1) == 'x' || ref.contains("+") || ref.contains("-")) {
          throw error("a malformed character reference");
        }
        if (!xmlChar(c)) {
          throw error("a reference to a character XML does not allow");
        }
      }
    }
    if (text != null) {
      text.appendCodePoint(c);
    }
    pos = semi + 1;
  }

  /**
   * Appends {@code doc[from..to)} decoded as UTF-8, CR LF and CR as LF; malformed or overlong
   * bytes, surrogates and characters XML forbids fail.
   */
  private void appendUtf8(StringBuilder text, int from, int to) throws XMLStreamException {
    int i = from;
    while (i < to) {
      int b = doc[i] & 0xFF;
      if (b < 0x80) {
        if (b == '\r') {
          text.append('\n');
          i += i + 1 < to && doc[i + 1] == '\n' ? 2 : 1;
          continue;
        }
        if (!xmlChar(b)) {
          throw error("a character XML does not allow");
        }
        text.append((char) b);
        i++;
        continue;
      }
      int n;
      int c;
      int min;
      if (b >= 0xC2 && b <= 0xDF) {
        n = 2;
        c = b & 0x1F;
        min = 0x80;
      } else if (b >= 0xE0 && b <= 0xEF) {
        n = 3;
        c = b & 0x0F;
        min = 0x800;
      } else if (b >= 0xF0 && b <= 0xF4) {
        n = 4;
        c = b & 0x07;
        min = 0x10000;
      } else {
        throw error("malformed UTF-8");
      }
      if (i + n > to) {
        throw error("malformed UTF-8");
      }
      for (int k = 1; k < n; k++) {
        int cont = doc[i + k] & 0xFF;
        if ((cont & 0xC0) != 0x80) {
          throw error("malformed UTF-8");
        }
        c = (c << 6) | (cont & 0x3F);
      }
      if (c < min || c > 0x10FFFF) {
        throw error("malformed UTF-8");
      }
      if (!xmlChar(c)) {
        throw error("a character XML does not allow");
      }
      text.appendCodePoint(c);
      i += n;
    }
  }

  /** The characters XML 1.0 allows (its production Char). */
  private static boolean xmlChar(int c) {
    return c == 0x9
        || c == 0xA
        || c == 0xD
        || (c >= 0x20 && c <= 0xD7FF)
        || (c >= 0xE000 && c <= 0xFFFD)
        || (c >= 0x10000 && c <= 0x10FFFF);
  }

  private void skipComment() throws XMLStreamException {
    int close = indexOf("-->", pos + 4);
    pos = close + 3;
  }

  private void skipInstruction() throws XMLStreamException {
    int close = indexOf("?>", pos + 2);
    pos = close + 2;
  }

  private boolean skipSpace() {
    int start = pos;
    while (pos < end && isSpace(doc[pos])) {
      pos++;
    }
    return pos > start;
  }

  private static boolean isSpace(byte b) {
    return b == ' ' || b == '\n' || b == '\t' || b == '\r';
  }

  private void expect(char c) throws XMLStreamException {
    if (pos >= end || doc[pos] != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private boolean startsWith(String s) {
    if (pos + s.length() > end) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (doc[pos + i] != s.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private int indexOf(String s, int from) throws XMLStreamException {
    outer:
    for (int i = from; i + s.length() <= end; i++) {
      for (int k = 0; k < s.length(); k++) {
        if (doc[i + k] != s.charAt(k)) {
          continue outer;
        }
      }
      return i;
    }
    throw error("the document ends before '" + s + "'");
  }

  private XMLStreamException error(String what) {
    return new XMLStreamException(what + " at byte " + Math.min(pos, end));
  }
}
