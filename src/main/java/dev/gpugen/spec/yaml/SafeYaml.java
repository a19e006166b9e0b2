package dev.gpugen.spec.yaml;

import dev.gpugen.spec.Position;
import dev.gpugen.spec.Printable;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlVersionException;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.parser.Parser;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;
import org.snakeyaml.engine.v2.schema.JsonSchema;

/**
 * Turns spec bytes into one YAML node tree, or into one clear problem with a position. Every limit
 * here exists because a spec is untrusted input that reaches generated infrastructure code.
 */
public final class SafeYaml {
  /** Specs are a few KiB; 1 MiB leaves room for huge fleets and still bounds memory and time. */
  public static final int MAX_BYTES = 1 << 20;

  /** Real specs nest about 5 deep; snakeyaml-engine composes recursively and has no limit. */
  public static final int MAX_DEPTH = 32;

  /** A spec needs no aliases at all; a few are tolerated, billions are not. */
  public static final int MAX_COLLECTION_ALIASES = 20;

  /** What went wrong while reading, at a 1-based position. */
  public record Problem(String ruleId, Position position, String message, String hint) {}

  /** Either a root node or a problem. */
  public record Result(Optional<Node> root, Optional<Problem> problem) {}

  private SafeYaml() {}

  public static Result load(String label, byte[] bytes) {
    if (bytes.length > MAX_BYTES) {
      return fail(
          "spec-too-large",
          Position.START,
          "the spec is larger than the limit of " + MAX_BYTES + " bytes",
          "a cluster spec is a few KiB; check that this is the right file");
    }
    String text;
    try {
      text = decode(bytes);
    } catch (BadEncoding e) {
      return fail(
          "spec-encoding",
          e.position,
          "the spec is not valid UTF-8 (byte offset " + e.offset + ")",
          "save the file as UTF-8 text");
    }
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    Optional<Problem> control = checkCharacters(text);
    if (control.isPresent()) {
      return new Result(Optional.empty(), control);
    }
    if (text.isBlank()) {
      return fail(
          "spec-empty",
          Position.START,
          "the spec is empty",
          "start from examples/aws-h100/cluster.yaml: apiVersion: gpugen/v1, kind: GpuCluster, ...");
    }
    LoadSettings settings =
        LoadSettings.builder()
            .setLabel(label)
            .setAllowDuplicateKeys(false)
            .setAllowRecursiveKeys(false)
            .setAllowNonScalarKeys(false)
            .setMaxAliasesForCollections(MAX_COLLECTION_ALIASES)
            .setCodePointLimit(MAX_BYTES)
            .setUseMarks(true)
            .setSchema(new JsonSchema())
            // Never setEnvConfig: ${AWS_SECRET_ACCESS_KEY} in a spec must stay literal text.
            .build();
    try {
      // The text is parsed once: the checks read the events first, then the composer replays them.
      List<Event> events = new ArrayList<>();
      Optional<Problem> deep = checkDepth(settings, text, events);
      if (deep.isPresent()) {
        return new Result(Optional.empty(), deep);
      }
      Optional<Node> root = new Composer(settings, new Replay(events)).getSingleNode();
      if (root.isEmpty()) {
        return fail("spec-empty", Position.START, "the spec has no document", null);
      }
      return new Result(root, Optional.empty());
    } catch (MarkedYamlEngineException e) {
      Position at = position(e);
      String hint = hintFor(e);
      if (hint == null && ruleFor(e).equals("spec-yaml-syntax")) {
        hint = Indentation.hint(text, at.line()).orElse(null);
      }
      return fail(ruleFor(e), at, message(e), hint);
    } catch (YamlVersionException e) {
      return fail(
          "spec-yaml-syntax",
          Position.START,
          "unsupported YAML version directive (" + oneLine(e.getMessage()) + ")",
          "remove the %YAML line; gpugen reads YAML 1.2");
    } catch (YamlEngineException e) {
      // Alias-limit and size-limit errors carry no mark.
      String msg = oneLine(e.getMessage());
      boolean aliases = msg.contains("aliases");
      return fail(
          aliases ? "spec-aliases" : "spec-yaml-syntax",
          Position.START,
          msg,
          aliases ? "a spec needs no YAML anchors for collections; write the values out" : null);
    } catch (StackOverflowError e) {
      // Defence in depth: the depth pre-scan should have caught it.
      return fail("spec-too-deep", Position.START, "the spec nests too deeply", null);
    }
  }

  /**
   * One pass over the event stream, before composing: the parser is an explicit state machine, so
   * this is safe on hostile nesting. Checks depth, and that mapping keys are plain scalars (the
   * composer rejects other keys too, but without a position).
   */
  private static Optional<Problem> checkDepth(
      LoadSettings settings, String text, List<Event> events) {
    // One entry per open collection: {is a mapping, expects a key next}.
    ArrayDeque<boolean[]> open = new ArrayDeque<>();
    // The parser Compose.composeString builds, so the events (and their marks) are the ones the
    // composer saw when it parsed the text itself.
    Parser parser = new ParserImpl(settings, new StreamReader(settings, new StringReader(text)));
    while (parser.hasNext()) {
      Event e = parser.next();
      events.add(e);
      Event.ID id = e.getEventId();
      boolean startsNode =
          id == Event.ID.Scalar
              || id == Event.ID.Alias
              || id == Event.ID.MappingStart
              || id == Event.ID.SequenceStart;
      if (startsNode && !open.isEmpty() && open.peek()[1] && id != Event.ID.Scalar) {
        return Optional.of(
            new Problem(
                "spec-yaml-syntax",
                toPosition(e.getStartMark()),
                "invalid YAML: a mapping key must be a plain word, not a list, mapping or alias",
                "write the key as text, e.g. name: value"));
      }
      if (id == Event.ID.Scalar || id == Event.ID.Alias) {
        toggle(open);
      } else if (id == Event.ID.MappingStart || id == Event.ID.SequenceStart) {
        if (open.size() + 1 > MAX_DEPTH) {
          return Optional.of(
              new Problem(
                  "spec-too-deep",
                  toPosition(e.getStartMark()),
                  "the spec nests deeper than " + MAX_DEPTH + " levels",
                  "a cluster spec needs about 5 levels; check for runaway brackets"));
        }
        boolean mapping = id == Event.ID.MappingStart;
        open.push(new boolean[] {mapping, mapping});
      } else if (id == Event.ID.MappingEnd || id == Event.ID.SequenceEnd) {
        open.pop();
        toggle(open);
      }
    }
    return Optional.empty();
  }

  /**
   * The events {@link #checkDepth} read, handed to the composer in order, as the parser they came
   * from would (snakeyaml-engine 3.2, {@code ParserImpl}: same answers at the end of the stream).
   */
  private static final class Replay implements Parser {
    private final List<Event> events;
    private int next;

    Replay(List<Event> events) {
      this.events = events;
    }

    @Override
    public boolean checkEvent(Event.ID choice) {
      return next < events.size() && events.get(next).getEventId() == choice;
    }

    @Override
    public Event peekEvent() {
      if (next >= events.size()) {
        throw new NoSuchElementException("No more Events found.");
      }
      return events.get(next);
    }

    @Override
    public Event next() {
      Event e = peekEvent();
      events.set(next++, null); // consumed: the composer keeps what it needs
      return e;
    }

    @Override
    public boolean hasNext() {
      return next < events.size();
    }
  }

  /** A complete node was seen: in a mapping, a key is followed by a value and vice versa. */
  private static void toggle(ArrayDeque<boolean[]> open) {
    if (!open.isEmpty() && open.peek()[0]) {
      open.peek()[1] = !open.peek()[1];
    }
  }

  private static String decode(byte[] bytes) throws BadEncoding {
    CharsetDecoder dec =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length + 1);
    var result = dec.decode(in, out, true);
    if (result.isError()) {
      int offset = in.position();
      String before = new String(bytes, 0, offset, StandardCharsets.UTF_8);
      throw new BadEncoding(offset, positionAtEnd(before));
    }
    dec.flush(out);
    out.flip();
    String s = out.toString();
    int nul = s.indexOf('\0');
    if (nul >= 0) {
      throw new BadEncoding(
          s.substring(0, nul).getBytes(StandardCharsets.UTF_8).length,
          positionAtEnd(s.substring(0, nul)));
    }
    return s;
  }

  /**
   * YAML 1.2 allows only printable characters in a stream (c-printable, section 5.1); the parser
   * would report the first other one at 1:1 without naming it. Found here with its real position.
   */
  private static Optional<Problem> checkCharacters(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean printable =
          c == '\t'
              || c == '\n'
              || c == '\r'
              || (c >= 0x20 && c <= 0x7e)
              || c == 0x85
              || (c >= 0xa0 && c <= 0xfffd);
      if (!printable) {
        return Optional.of(
            new Problem(
                "spec-yaml-syntax",
                positionAtEnd(text.substring(0, i)),
                "the spec contains "
                    + Printable.name(c)
                    + ", a control character YAML does not allow in a file",
                "remove it; inside a double-quoted string write it as an escape such as \\x1b"));
      }
    }
    return Optional.empty();
  }

  private static Position positionAtEnd(String before) {
    int line = 1;
    int col = 1;
    for (int i = 0; i < before.length(); i++) {
      if (before.charAt(i) == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    return new Position(line, col);
  }

  private static String ruleFor(MarkedYamlEngineException e) {
    String p = e.getProblem() + " " + e.getContext();
    if (p.contains("duplicate key")) {
      return "spec-duplicate-key";
    }
    if (p.contains("single document")) {
      return "spec-multiple-documents";
    }
    if (p.contains("exceeds the limit")) {
      return "spec-too-large";
    }
    return "spec-yaml-syntax";
  }

  private static String hintFor(MarkedYamlEngineException e) {
    String p = e.getProblem() + " " + e.getContext();
    if (p.contains("duplicate key")) {
      return "each key may appear once in a mapping; merge the two entries";
    }
    if (p.contains("single document")) {
      return "a spec file holds one cluster; remove the extra '---' document";
    }
    if (p.contains("tab")) {
      return "indent with spaces, not tabs";
    }
    return null;
  }

  private static Position position(MarkedYamlEngineException e) {
    Optional<Mark> m = e.getProblemMark().or(e::getContextMark);
    return toPosition(m);
  }

  static Position toPosition(Optional<Mark> m) {
    return m.map(x -> new Position(x.getLine() + 1, x.getColumn() + 1)).orElse(Position.START);
  }

  private static String message(MarkedYamlEngineException e) {
    String problem = oneLine(e.getProblem());
    String context = e.getContext() == null ? "" : oneLine(e.getContext());
    if (problem.isEmpty()) {
      return context.isEmpty() ? "invalid YAML" : "invalid YAML: " + context;
    }
    return context.isEmpty() || problem.contains(context)
        ? "invalid YAML: " + problem
        : "invalid YAML: " + problem + " (" + context + ")";
  }

  private static String oneLine(String s) {
    if (s == null) {
      return "";
    }
    String t = s.replaceAll("\\s+", " ").trim();
    return t.length() > 200 ? t.substring(0, 200) + "…" : t;
  }

  private static Result fail(String rule, Position p, String msg, String hint) {
    return new Result(Optional.empty(), Optional.of(new Problem(rule, p, msg, hint)));
  }

  private static final class BadEncoding extends CharacterCodingException {
    private static final long serialVersionUID = 1L;
    final int offset;
    final transient Position position;

    BadEncoding(int offset, Position position) {
      this.offset = offset;
      this.position = position;
    }
  }
}
