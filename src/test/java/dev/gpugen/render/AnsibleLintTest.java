package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Golden;
import dev.gpugen.testing.AnsibleLint;
import dev.gpugen.testing.LintTest;
import dev.gpugen.testing.RealTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every file of every rendered case ({@link RenderedCase#CASES}) passes ansible-lint's production
 * profile, in one run over the cases merged so that each distinct file is linted once ({@link
 * AnsibleLint}): the static role set once, plus what each case generates.
 */
@LintTest
class AnsibleLintTest {
  @TempDir Path tmp;

  private static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void everyCasesFilesPassTheProductionProfileInOneRun() throws Exception {
    Map<String, Path> folders = new LinkedHashMap<>();
    TreeSet<String> all = new TreeSet<>();
    for (String name : RenderedCase.CASES) {
      Path dir = RenderedCase.render(name, tmp.resolve("render/" + name)).ansible();
      folders.put(name, dir);
      Golden.read(dir).keySet().forEach(f -> all.add(name + ": " + f));
    }
    AnsibleLint.Project project = AnsibleLint.merge(folders, tmp.resolve("lint"));

    // Every file of every case stands in the project by a file with its bytes.
    TreeSet<String> covered = new TreeSet<>();
    project
        .origins()
        .forEach(
            (file, from) -> {
              for (String origin : from.split(", ")) {
                covered.add(origin);
                String[] nameAndPath = origin.split(": ", 2);
                assertArrayEquals(
                    read(folders.get(nameAndPath[0]).resolve(nameAndPath[1])),
                    read(project.dir().resolve(file)),
                    origin);
              }
            });
    assertEquals(all, covered);
    System.out.printf(
        "ansible-lint: the %d files of %d cases as %d distinct files%n",
        all.size(), folders.size(), project.origins().size());

    RealTools.Result r = AnsibleLint.production(project.dir());
    assertEquals(
        0,
        r.exitCode(),
        () -> r.output() + "\nfiles and the cases' files they stand for:\n" + project.legend());
    assertTrue(r.output().contains("Passed with production profile"), r.output());
  }

  /**
   * A violation in a file one case alone has (a second, planted copy of the reference render) fails
   * the run, and the output names that file, under cases/ where the legend finds its case.
   */
  @Test
  void aPlantedViolationFailsTheRunNamingTheFile() throws Exception {
    Path reference = RenderedCase.render("reference", tmp.resolve("render/reference")).ansible();
    Path planted = RenderedCase.render("reference", tmp.resolve("render/planted")).ansible();
    Path tasks = planted.resolve("roles/nvidia_driver/tasks/main.yml");
    Files.writeString(
        tasks,
        Files.readString(tasks) + "\n- name: Planted\n  shell: echo planted\n",
        java.nio.charset.StandardCharsets.UTF_8);
    Map<String, Path> folders = new LinkedHashMap<>();
    folders.put("reference", reference);
    folders.put("planted", planted);
    AnsibleLint.Project project = AnsibleLint.merge(folders, tmp.resolve("lint"));
    String file = "cases/planted/roles/nvidia_driver/tasks/main.yml";
    assertEquals("planted: roles/nvidia_driver/tasks/main.yml", project.origins().get(file));

    RealTools.Result r = AnsibleLint.production(project.dir());
    RenderedCase.assertExit(2, r);
    assertTrue(r.output().contains(file + ":"), r.output());
    assertTrue(r.output().contains("fqcn[action-core]"), r.output());
  }
}
