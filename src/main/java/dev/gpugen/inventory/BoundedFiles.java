package dev.gpugen.inventory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;

/**
 * Reads a file only if it is a regular file of bounded size: a FIFO would block the open forever
 * and {@code /dev/zero} would fill the heap, and neither is a settings or cache file.
 */
final class BoundedFiles {
  /** The file is not a regular file, or is larger than allowed; the message says which. */
  static final class NotAFileException extends IOException {
    private static final long serialVersionUID = 1L;

    NotAFileException(String message) {
      super(message);
    }
  }

  private BoundedFiles() {}

  /**
   * The bytes of {@code file} if it is a regular file (symbolic links followed) of at most {@code
   * max} bytes.
   *
   * @param what how messages name the file ("inventory settings", "cache file")
   * @throws java.nio.file.NoSuchFileException if it does not exist
   * @throws NotAFileException if it is not a regular file or is too large
   */
  static byte[] read(Path file, long max, String what, LinkOption... options) throws IOException {
    BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, options);
    if (!attributes.isRegularFile()) {
      throw new NotAFileException(what + " " + file + " is not a regular file");
    }
    if (attributes.size() > max) {
      throw new NotAFileException(
          what + " " + file + " is larger than " + max + " bytes; it cannot be one");
    }
    try (InputStream in = Files.newInputStream(file, options)) {
      // One array of the size just checked (a 16 MB cache file is read on every cached run, and
      // readNBytes would gather it in 8 KB pieces and copy them); the size may change between the
      // check and the read, so a file that grew is read on, at most one byte past max.
      byte[] bytes = new byte[(int) attributes.size()];
      int n = in.readNBytes(bytes, 0, bytes.length);
      if (n < bytes.length) {
        bytes = Arrays.copyOf(bytes, n); // it shrank
      } else {
        byte[] rest = in.readNBytes((int) (max + 1 - n)); // it grew, or this is the end
        if (rest.length > 0) {
          bytes = Arrays.copyOf(bytes, n + rest.length);
          System.arraycopy(rest, 0, bytes, n, rest.length);
        }
      }
      if (bytes.length > max) {
        throw new NotAFileException(
            what + " " + file + " is larger than " + max + " bytes; it cannot be one");
      }
      return bytes;
    }
  }
}
