package dev.gpugen.write;

import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.spec.SafeRead;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The folder beside the output where a write stages its files (same file system, so every move into
 * place is one atomic rename). Its {@code owner} file names the process, so a later run removes
 * only staging that is provably abandoned: its process is dead, or (from another machine or
 * container sharing the folder, where the process cannot be seen) it is older than {@link
 * #MAX_AGE}.
 */
final class Staging {
  static final String PREFIX = ".gpugen-staging-";
  static final String OWNER = "owner";

  /** No render takes an hour; a staging folder that old is abandoned whoever made it. */
  static final Duration MAX_AGE = Duration.ofHours(1);

  private Staging() {}

  static Path create(Path parent) throws IOException {
    Path dir = Files.createTempDirectory(parent, PREFIX);
    long self = ProcessHandle.current().pid();
    String owner = self + " " + started(self).orElse("0") + " " + host() + "\n";
    Files.writeString(dir.resolve(OWNER), owner, StandardCharsets.UTF_8);
    return dir;
  }

  /** Deletes the staging folders in {@code parent} that no live run owns. */
  static void cleanAbandoned(Path parent) throws IOException {
    try (Stream<Path> s = Files.list(parent)) {
      for (Path p : s.filter(p -> p.getFileName().toString().startsWith(PREFIX)).toList()) {
        try {
          if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && abandoned(p)) {
            deleteTree(p);
          }
        } catch (NoSuchFileException e) {
          // Its run finished, or another run cleaned it, since the listing: nothing left to do.
        }
      }
    }
  }

  static boolean abandoned(Path staging) throws IOException {
    FileTime modified = Files.getLastModifiedTime(staging, LinkOption.NOFOLLOW_LINKS);
    if (modified.toInstant().isBefore(Instant.now().minus(MAX_AGE))) {
      return true;
    }
    String[] owner;
    try {
      owner =
          new String(SafeRead.read(staging.resolve(OWNER), 1024, false), StandardCharsets.UTF_8)
              .trim()
              .split(" ");
    } catch (IOException | EnvironmentFailure e) {
      // Being created this instant, or from a run that died before writing it: the age decides.
      return false;
    }
    if (owner.length != 3 || !owner[2].equals(host())) {
      return false;
    }
    long pid;
    try {
      pid = Long.parseLong(owner[0]);
    } catch (NumberFormatException e) {
      return false;
    }
    Optional<ProcessHandle> h = ProcessHandle.of(pid);
    if (h.isEmpty() || !h.get().isAlive()) {
      return true;
    }
    // Alive under that pid: abandoned only if the pid now names a process started at another time,
    // read the same way (an owner that could not read its own start, "0", is never judged so).
    String recorded = owner[1];
    return started(pid)
        .filter(now -> !recorded.isEmpty() && now.charAt(0) == recorded.charAt(0))
        .map(now -> !now.equals(recorded))
        .orElse(false);
  }

  /**
   * When process {@code pid} started, as a token that is the same whenever and by whichever process
   * it is read: the start time in clock ticks since boot from {@code /proc/PID/stat} (field 22, see
   * proc(5)). Not {@code ProcessHandle.Info.startInstant()}: the JDK adds the boot time, which each
   * JVM reads once from {@code /proc/stat}'s {@code btime}, and that value moves by a second when
   * the clock is adjusted, so two JVMs can disagree about a live process and one would delete the
   * other's staging. Elsewhere the start instant in whole seconds, compared as written.
   */
  static Optional<String> started(long pid) {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    try {
      String line = new String(SafeRead.read(stat, 4096, false), StandardCharsets.US_ASCII);
      // The command name (field 2) is in parentheses and may hold spaces: count after the last ')'.
      String[] fields = line.substring(line.lastIndexOf(')') + 2).trim().split(" ");
      return fields.length > 19 ? Optional.of("t" + fields[19]) : Optional.empty();
    } catch (IOException | IndexOutOfBoundsException | EnvironmentFailure e) {
      return ProcessHandle.of(pid)
          .flatMap(h -> h.info().startInstant())
          .map(i -> "s" + i.getEpochSecond());
    }
  }

  /**
   * Which process ids this process can see: the Linux pid namespace (two containers sharing a
   * folder see different processes under the same number), else the host name.
   */
  private static String host() {
    try {
      return Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString().replace(' ', '_');
    } catch (IOException | UnsupportedOperationException e) {
      String h = System.getenv("HOSTNAME");
      return h == null || h.isBlank() ? "unknown" : h.replace(' ', '_');
    }
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    // Files.walk does not follow links: a link inside is deleted, never what it points to.
    List<Path> paths;
    try (Stream<Path> s = Files.walk(root)) {
      paths = s.sorted(Comparator.reverseOrder()).toList();
    } catch (UncheckedIOException e) {
      throw e.getCause(); // an entry vanished during the walk: say so as the IOException it is
    }
    for (Path p : paths) {
      Files.deleteIfExists(p);
    }
  }
}
