package dev.gpugen.spec;

import dev.gpugen.failure.EnvironmentFailure;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Every file gpugen reads goes through here: only a regular file (a FIFO or a device would block or
 * never end), and never more than a stated size (a 3 GiB file must be one line, not an
 * OutOfMemoryError).
 */
public final class SafeRead {
  private SafeRead() {}

  /**
   * The bytes of {@code file}, at most {@code max} of them. With {@code followLinks} false a
   * symbolic link is refused, including one swapped in between the check and the open.
   *
   * @throws EnvironmentFailure for a file that is not a regular file or is larger than allowed; one
   *     line saying what it is, for the caller to put the file's name before
   */
  public static byte[] read(Path file, long max, boolean followLinks) throws IOException {
    LinkOption[] link =
        followLinks ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
    BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, link);
    if (a.isSymbolicLink()) {
      throw new EnvironmentFailure("is a symbolic link; gpugen does not read through links");
    }
    if (!a.isRegularFile()) {
      throw new EnvironmentFailure(
          (a.isDirectory() ? "is a folder" : "is not a regular file (a pipe or a device)")
              + "; gpugen reads only regular files");
    }
    if (a.size() > max) {
      throw new EnvironmentFailure(tooLarge(a.size(), max));
    }
    OpenOption[] open =
        followLinks ? new OpenOption[0] : new OpenOption[] {LinkOption.NOFOLLOW_LINKS};
    try (InputStream in = Files.newInputStream(file, open)) {
      byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
      if (bytes.length > max) {
        // It grew between the size check and the read.
        throw new EnvironmentFailure(tooLarge(bytes.length, max));
      }
      return bytes;
    }
  }

  private static String tooLarge(long size, long max) {
    return "is " + human(size) + ", more than the " + human(max) + " gpugen reads";
  }

  public static String human(long bytes) {
    if (bytes >= 1L << 30) {
      return String.format("%.1f GiB", bytes / (double) (1L << 30));
    }
    if (bytes >= 1L << 20) {
      return (bytes >> 20) + " MiB";
    }
    if (bytes >= 1L << 10) {
      return (bytes >> 10) + " KiB";
    }
    return bytes + " bytes";
  }
}
