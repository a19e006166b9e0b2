package dev.gpugen.inventory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

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
      // The size may change between the check and the read: read at most one byte too many.
      byte[] bytes = in.readNBytes((int) max + 1);
      if (bytes.length > max) {
        throw new NotAFileException(
            what + " " + file + " is larger than " + max + " bytes; it cannot be one");
      }
      return bytes;
    }
  }
}
