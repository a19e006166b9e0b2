package dev.gpugen.spec;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Commands gpugen prints for a person to paste into a shell (render's next steps, the render
 * check's hint, the steps of up and down, init's next command, drift's fix), built from words that
 * may come from outside: file names, folder names, host names. Each word is quoted for POSIX sh
 * (and reads the same in bash and zsh), so pasting the line runs the intended command with the
 * intended arguments and nothing else, whatever the name holds ({@code $(...)}, backticks, quotes,
 * spaces, {@code !}). A character that must not reach the terminal raw (a control character, ESC, a
 * bidi override; {@link Printable}) is written as a {@code printf} octal escape inside a command
 * substitution, so the printed line stays one line of plain text and still names the exact file.
 */
public final class ShellCommand {
  /** Words every shell reads as themselves. No '=' first: zsh expands =word to a path. */
  private static final Pattern PLAIN =
      Pattern.compile("[A-Za-z0-9_@%+:,./-][A-Za-z0-9_@%+=:,./-]*");

  /** Characters written as themselves inside the printf format; any other is an octal escape. */
  private static final Pattern FORMAT_SAFE = Pattern.compile("[A-Za-z0-9 _./,:@+=-]");

  private ShellCommand() {}

  /** The words joined into one line, each quoted as needed. */
  public static String of(List<String> words) {
    return words.stream().map(ShellCommand::word).collect(Collectors.joining(" "));
  }

  /** The words joined into one line, each quoted as needed. */
  public static String of(String... words) {
    return of(List.of(words));
  }

  /**
   * A relative path as a command's operand: one that starts with "-" gets "./" first, so that the
   * command (cd, gpugen, its -o) reads it as a path and not as an option.
   */
  public static String path(String p) {
    return p.startsWith("-") ? "./" + p : p;
  }

  /**
   * {@code s} as one shell word. A plain word stays as it is; other text goes in single quotes (a
   * {@code '} as {@code '\''}); from the first character that must not reach a terminal raw, the
   * rest is {@code "$(printf 'FORMAT')"} with that character as octal escapes of its UTF-8 bytes.
   *
   * @throws IllegalArgumentException for text ending in a line feed, which no command substitution
   *     can carry (it drops trailing line feeds); see {@link #problem}
   */
  public static String word(String s) {
    if (PLAIN.matcher(s).matches()) {
      return s;
    }
    problem(s)
        .ifPresent(
            p -> {
              throw new IllegalArgumentException(p);
            });
    int first = 0;
    while (first < s.length() && !Printable.unsafe(s.charAt(first))) {
      first++;
    }
    StringBuilder b = new StringBuilder();
    if (first > 0 || s.isEmpty()) {
      b.append('\'').append(s.substring(0, first).replace("'", "'\\''")).append('\'');
    }
    if (first < s.length()) {
      b.append("\"$(printf '");
      String rest = s.substring(first);
      for (int i = 0; i < rest.length(); ) {
        int cp = rest.codePointAt(i);
        String ch = new String(Character.toChars(cp));
        if (FORMAT_SAFE.matcher(ch).matches()) {
          b.append(ch);
        } else {
          for (byte x : ch.getBytes(StandardCharsets.UTF_8)) {
            b.append(String.format("\\%03o", x & 0xff));
          }
        }
        i += Character.charCount(cp);
      }
      b.append("')\"");
    }
    return b.toString();
  }

  /**
   * Why {@code s} cannot be written as a shell word on one line, or empty: only text ending in a
   * line feed, since a command substitution drops trailing line feeds.
   */
  public static Optional<String> problem(String s) {
    return s.endsWith("\n")
        ? Optional.of(
            "ends in a line feed, which no command gpugen prints for pasting could name; rename it")
        : Optional.empty();
  }
}
