package dev.gpugen.render;

/** A template failed; the message names the template and line. */
public final class RenderException extends Exception {
  private static final long serialVersionUID = 1L;

  public RenderException(String message, Throwable cause) {
    super(message, cause);
  }
}
