package dev.gpugen.write;

import dev.gpugen.failure.Failure;
import dev.gpugen.failure.InvalidInput;
import dev.gpugen.spec.Printable;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Paths inside the output folder: the one check every path gpugen reads, replaces or deletes goes
 * through, whether it comes from the render or from a manifest on disk.
 */
final class Contained {
  private Contained() {}

  /**
   * Why {@code rel} is not a plain relative path inside a folder, or null when it is: absolute
   * paths, {@code ..}, {@code .}, empty segments, backslashes and control characters are refused by
   * their text, before any file system lookup.
   */
  static String problem(String rel) {
    if (rel.isEmpty()) {
      return "is empty";
    }
    if (rel.startsWith("/") || rel.startsWith("~")) {
      return "is an absolute path";
    }
    if (rel.contains("\\")) {
      return "contains a backslash";
    }
    for (int i = 0; i < rel.length(); i++) {
      if (Printable.unsafe(rel.charAt(i))) {
        return "contains " + Printable.name(rel.charAt(i));
      }
    }
    for (String segment : rel.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        return "is not a plain relative path (it has an empty, \".\" or \"..\" segment)";
      }
    }
    return null;
  }

  /**
   * {@code out/rel} after {@link #problem} and a walk from {@code out} down to the file that finds
   * no symbolic link on the way (the file itself included).
   */
  static Path resolve(Path out, String rel) throws Failure {
    String problem = problem(rel);
    if (problem != null) {
      throw new InvalidInput(
          "path \"" + Printable.text(rel) + "\" escapes " + out + ": it " + problem);
    }
    Path target = out.resolve(rel).normalize();
    if (!target.startsWith(out) || target.equals(out)) {
      throw new InvalidInput("path " + Printable.text(rel) + " escapes " + out);
    }
    Path p = out;
    for (Path segment : out.relativize(target)) {
      p = p.resolve(segment);
      if (Files.isSymbolicLink(p)) {
        throw new InvalidInput(
            Printable.text(p.toString())
                + " is a symbolic link; gpugen does not read, write or delete through links"
                + " (remove the link; a generated folder holds only real files)");
      }
    }
    return target;
  }

  /**
   * Refuses a symbolic link anywhere on the way to {@code out}: for a relative {@code -o} the
   * folders below the working directory, for an absolute one every folder from the root.
   */
  static void checkOutput(Path given, Path out) throws Failure {
    Path cwd = Path.of("").toAbsolutePath().normalize();
    for (Path p = out; p != null; p = p.getParent()) {
      if (!given.isAbsolute() && cwd.startsWith(p)) {
        return;
      }
      if (Files.isSymbolicLink(p)) {
        throw new InvalidInput(
            Printable.text(p.toString())
                + " is a symbolic link on the way to the output folder; gpugen writes only"
                + " through real folders: give -o the real path");
      }
    }
  }
}
