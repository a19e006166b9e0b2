package dev.gpugen.compat;

/**
 * Thrown when {@code compat.yaml} is malformed. The message names the file, the row and the key
 * that is wrong, e.g. {@code compat.yaml: aws_instances[p5.48xlarge].gpus: expected a whole number,
 * got "eight"}. This is a bug in gpugen's shipped data, never a user error.
 */
public final class CompatDataException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  CompatDataException(String message) {
    super(message);
  }

  CompatDataException(String message, Throwable cause) {
    super(message, cause);
  }
}
