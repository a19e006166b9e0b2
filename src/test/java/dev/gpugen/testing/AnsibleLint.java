package dev.gpugen.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * ansible-lint's production profile over many rendered Ansible folders in one run, each distinct
 * file once: most of every render is the same static role set, and a run costs seconds per folder
 * (start-up, a syntax check per playbook). The folders are merged into one project: the first
 * folder's files at its root, then every other folder's files at the same place when the path is
 * new, under {@code cases/<name>/} when the path is taken by other bytes, and not at all when the
 * same bytes are already there; a file under {@code cases/} brings the other files of its folder
 * along, so that relative includes resolve. ansible-lint judges a file by its kind, which follows
 * from its path and bytes, so every file of every folder is judged as it would be in its own
 * folder; a playbook under {@code cases/} finds the roles of the root ({@code ANSIBLE_ROLES_PATH})
 * when it has none beside it.
 */
public final class AnsibleLint {
  private AnsibleLint() {}

  /** Folder names below the merged project's root where the files that differ go. */
  public static final String CASES = "cases";

  /**
   * A merged project.
   *
   * @param dir its root
   * @param origins every file of every folder ("name: relative path") by the file of the project
   *     that stands for it
   */
  public record Project(Path dir, SortedMap<String, String> origins) {
    /** The folders' files the project holds, one per line, for a failure message. */
    public String legend() {
      StringBuilder b = new StringBuilder();
      origins.forEach((file, from) -> b.append(file).append(" <- ").append(from).append('\n'));
      return b.toString();
    }
  }

  /**
   * Merges {@code folders} (name to an Ansible folder, the first one complete) into {@code dest};
   * fails if their {@code .ansible-lint} settings differ, since only the root's apply.
   */
  public static Project merge(Map<String, Path> folders, Path dest) throws IOException {
    Map<String, byte[]> atRoot = new LinkedHashMap<>();
    SortedMap<String, String> origins = new TreeMap<>();
    Map<String, String> placed = new LinkedHashMap<>();
    for (Map.Entry<String, Path> folder : folders.entrySet()) {
      String name = folder.getKey();
      if (name.isEmpty() || name.contains("/") || name.startsWith(".")) {
        fail("not a folder name: \"" + name + "\"");
      }
      Path src = folder.getValue();
      for (Path file : files(src)) {
        String rel = src.relativize(file).toString();
        byte[] bytes = Files.readAllBytes(file);
        String digest = rel + "\0" + dev.gpugen.spec.Sha256.hex(bytes);
        String target = placed.get(digest);
        if (target == null) {
          byte[] there = atRoot.get(rel);
          if (rel.equals(".ansible-lint") && there != null && !Arrays.equals(there, bytes)) {
            fail(
                name + "/.ansible-lint differs from the first folder's: one run cannot apply both");
          }
          if (there == null) {
            atRoot.put(rel, bytes);
            target = rel;
          } else {
            target = CASES + "/" + name + "/" + rel;
          }
          Path out = dest.resolve(target);
          Files.createDirectories(out.getParent());
          Files.copy(file, out, StandardCopyOption.COPY_ATTRIBUTES);
          placed.put(digest, target);
        }
        origins.merge(target, name + ": " + rel, (a, b) -> a + ", " + b);
      }
      // A file under cases/ brings its folder's siblings: a task file's include_tasks and a
      // playbook's relative paths resolve beside it, where the root's copies would not be found.
      for (Path file : files(src)) {
        String rel = src.relativize(file).toString();
        Path parent = Path.of(rel).getParent();
        String dir = CASES + "/" + name + "/" + (parent == null ? "" : parent + "/");
        String target = CASES + "/" + name + "/" + rel;
        boolean besideCaseFile =
            origins.keySet().stream()
                .anyMatch(
                    t ->
                        t.startsWith(dir) && t.indexOf('/', dir.length()) < 0 && !t.equals(target));
        if (besideCaseFile && !origins.containsKey(target)) {
          Path out = dest.resolve(target);
          Files.createDirectories(out.getParent());
          Files.copy(file, out, StandardCopyOption.COPY_ATTRIBUTES);
          origins.put(target, name + ": " + rel);
        }
      }
    }
    return new Project(dest, origins);
  }

  /**
   * {@code ansible-lint --offline --profile production} in {@code dir}, with its {@code
   * .ansible-lint}. --offline: no Galaxy installs or schema downloads.
   */
  public static RealTools.Result production(Path dir) throws IOException, InterruptedException {
    return RealTools.run(
        dir,
        Duration.ofMinutes(10),
        Map.of(),
        "ansible-lint",
        "--offline",
        "--nocolor",
        "--profile",
        "production");
  }

  private static java.util.List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).sorted().toList();
    }
  }
}
