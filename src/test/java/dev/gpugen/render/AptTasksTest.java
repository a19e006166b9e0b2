package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Every apt task of every rendered role (tasks, handlers, inside blocks too) waits for the dpkg
 * lock: on a fresh Ubuntu node, unattended-upgrades holds it for minutes after the first boot, and
 * an apt task without {@code lock_timeout} fails at once with "Could not get lock".
 */
class AptTasksTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @FieldSource("dev.gpugen.render.RenderedCase#CASES")
  void everyAptTaskWaitsForTheDpkgLock(String name) throws Exception {
    Path dir = RenderedCase.render(name, tmp.resolve(name)).ansible();
    List<String> apt = new ArrayList<>();
    List<String> without = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir.resolve("roles"))) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String rel = dir.relativize(f).toString();
        if (!rel.matches("roles/[^/]+/(tasks|handlers)/[^/]+\\.yml")) {
          continue;
        }
        Object doc = new Load(LoadSettings.builder().build()).loadFromString(Files.readString(f));
        if (doc instanceof List<?> tasks) {
          walk(rel, tasks, apt, without);
        }
      }
    }
    if (!name.equals("gcp-gke")) {
      assertTrue(apt.size() >= 5, "the node roles install with apt: " + apt);
    }
    assertEquals(List.of(), without, "apt tasks without lock_timeout");
  }

  private static void walk(String file, List<?> tasks, List<String> apt, List<String> without) {
    for (Object t : tasks) {
      if (!(t instanceof Map<?, ?> task)) {
        continue;
      }
      for (String nested : List.of("block", "rescue", "always")) {
        if (task.get(nested) instanceof List<?> inner) {
          walk(file, inner, apt, without);
        }
      }
      Object module =
          task.containsKey("ansible.builtin.apt") ? task.get("ansible.builtin.apt") : null;
      if (module == null && task.containsKey("apt")) {
        module = task.get("apt");
      }
      if (module instanceof Map<?, ?> args) {
        String id = file + ": " + task.get("name");
        apt.add(id);
        if (!args.containsKey("lock_timeout")) {
          without.add(id);
        }
      }
    }
  }
}
