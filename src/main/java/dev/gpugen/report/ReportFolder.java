package dev.gpugen.report;

import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.Failure;
import dev.gpugen.failure.InvalidInput;
import dev.gpugen.spec.Printable;
import dev.gpugen.spec.SafeRead;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * The reports folder: the only place {@code gpugen report} reads ({@code *.json}, regular files, no
 * links, bounded) and writes ({@link #PAGE} and {@link #JUNIT}, each through a temporary file in
 * the folder renamed over the old one, so a reader never sees half a page).
 */
public final class ReportFolder {
  public static final String PAGE = "index.html";
  public static final String JUNIT = "validation-junit.xml";

  /** A report is a few kilobytes; measured output a node wrote into one may make it larger. */
  static final long MAX_REPORT_BYTES = 4L << 20;

  /** More files than any fleet has nodes: a folder of something else. */
  static final int MAX_REPORTS = 100_000;

  private ReportFolder() {}

  /** What was written. */
  public record Written(Path page, Path junit) {}

  /**
   * The reports folder of a render folder: {@code FOLDER/ansible/reports}, where play 05 fetches
   * them, or {@code FOLDER/reports} when FOLDER is the render's {@code ansible/} folder.
   */
  public static Path of(Path renderFolder) throws Failure {
    for (Path candidate :
        List.of(
            renderFolder.resolve("ansible").resolve("reports"), renderFolder.resolve("reports"))) {
      if (Files.isDirectory(candidate, LinkOption.NOFOLLOW_LINKS)) {
        return candidate;
      }
    }
    throw new EnvironmentFailure(
        Printable.text(renderFolder.toString())
            + " has no reports folder (ansible/reports or reports): play 05 writes"
            + " reports/<host>.json there; run ansible-playbook 05-validation.yml first, or name"
            + " the folder with --reports");
  }

  /** Every report in {@code dir}, by file name. */
  public static List<HostReport> read(Path dir) throws Failure {
    folder(dir);
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*.json")) {
      for (Path f : s) {
        if (files.size() == MAX_REPORTS) {
          throw new InvalidInput(
              Printable.text(dir.toString())
                  + " has more than "
                  + MAX_REPORTS
                  + " .json files: it is not a reports folder");
        }
        if (!Files.isDirectory(f, LinkOption.NOFOLLOW_LINKS)) {
          files.add(f);
        }
      }
    } catch (IOException e) {
      throw new EnvironmentFailure("cannot list " + Printable.text(dir + ": " + e.getMessage()), e);
    }
    files.sort(null);
    if (files.isEmpty()) {
      throw new EnvironmentFailure(
          "no reports in "
              + Printable.text(dir.toString())
              + ": play 05 writes reports/<host>.json (run ansible-playbook 05-validation.yml)");
    }
    List<HostReport> reports = new ArrayList<>();
    for (Path f : files) {
      byte[] bytes;
      try {
        bytes = SafeRead.read(f, MAX_REPORT_BYTES, false);
      } catch (EnvironmentFailure e) {
        throw e.prefixed(Printable.text(f.toString()) + " ");
      } catch (IOException e) {
        throw new EnvironmentFailure("cannot read " + Printable.text(f + ": " + e.getMessage()), e);
      }
      reports.add(ReportParser.parse(f.toString(), bytes));
    }
    return reports;
  }

  /** Writes the page and the JUnit file of {@code fleet} into {@code dir}. */
  public static Written write(Path dir, Fleet fleet) throws Failure {
    folder(dir);
    Path page = replace(dir, PAGE, HtmlPage.of(fleet));
    Path junit = replace(dir, JUNIT, JunitXml.of(fleet));
    return new Written(page, junit);
  }

  private static void folder(Path dir) throws Failure {
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw new EnvironmentFailure("no reports folder " + Printable.text(dir.toString()));
    }
    if (a.isSymbolicLink()) {
      throw new InvalidInput(
          Printable.text(dir.toString())
              + " is a symbolic link; gpugen reads and writes reports only in a real folder");
    }
    if (!a.isDirectory()) {
      throw new InvalidInput(Printable.text(dir.toString()) + " is not a folder");
    }
  }

  private static Path replace(Path dir, String name, String text) throws Failure {
    Path target = dir.resolve(name);
    if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)
        && !Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
      throw new InvalidInput(
          Printable.text(target.toString())
              + " is not a regular file (a link, a folder or a pipe); gpugen replaces only its own"
              + " file there: remove it");
    }
    Path tmp = dir.resolve("." + name + ".tmp-" + ProcessHandle.current().pid());
    try {
      Files.deleteIfExists(tmp);
      Files.write(
          tmp,
          text.getBytes(StandardCharsets.UTF_8),
          StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return target;
    } catch (IOException e) {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // The write failed already; that is the error to report.
      }
      throw new EnvironmentFailure(
          "cannot write " + Printable.text(target + ": " + e.getMessage()), e);
    }
  }
}
