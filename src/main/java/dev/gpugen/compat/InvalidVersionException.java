package dev.gpugen.compat;

import java.util.Objects;

/**
 * Thrown when text is not a version gpugen understands. The caller turns it into a diagnostic; the
 * message already names the text and the expected form.
 */
public final class InvalidVersionException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String input;

  InvalidVersionException(String input, String reason) {
    super("not a version: \"" + input + "\": " + reason);
    this.input = Objects.requireNonNull(input, "input");
  }

  /** The text that failed to parse, exactly as given. */
  public String input() {
    return input;
  }
}
