package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.TestSpecs;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import dev.gpugen.testing.Records;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pull-mode user data is shell: values that got past the reader (a model built in code) must
 * reach it as the same literal words, and bash must parse the whole script. The values' lines are
 * evaluated by a real bash, which prints them back; nothing in them runs.
 */
@RealToolsTest
class PullScriptEscapingTest {
  static final String URL = "https://h/x'; touch /tmp/pwned #`id` $(id) \"$HOME\" \\ ${PATH}";
  static final String REF = "v1'$(reboot)'";
  static final String PATH_IN_REPO = "a b/'c'/$(d)";

  @TempDir Path tmp;

  @Test
  void hostileGitValuesStayLiteralWordsAndTheScriptParses() throws Exception {
    ClusterSpec base =
        TestSpecs.read(Path.of("src/test/resources/golden/aws-pull/spec.yaml"), Optional.empty());
    ClusterSpec hostile =
        Records.with(
            base,
            "ansible.pull.source",
            dev.gpugen.spec.PullSource.GIT,
            "ansible.pull.gitUrl",
            URL,
            "ansible.pull.gitRef",
            REF,
            "ansible.pull.gitPath",
            PATH_IN_REPO);
    Rendered r = Rendered.of("hostile-pull", hostile);
    String script = r.terraform().get("user-data-h100.sh");
    assertTrue(script.startsWith("#!/bin/bash\n"), script);

    Path file = Files.writeString(tmp.resolve("user-data.sh"), script);
    RealTools.run(tmp, Duration.ofSeconds(30), Map.of(), "bash", "-n", file.toString()).assertOk();

    // Only the assignments, then print the values back.
    String assignments =
        script.lines().filter(l -> l.matches("^[a-z_0-9]+='.*$")).collect(Collectors.joining("\n"));
    Path probe =
        Files.writeString(
            tmp.resolve("probe.sh"),
            assignments + "\nprintf '%s\\n' \"$git_url\" \"$git_ref\" \"$git_path\" \"$source\"\n");
    RealTools.Result out =
        RealTools.run(tmp, Duration.ofSeconds(30), Map.of(), "bash", probe.toString()).assertOk();
    assertEquals(List.of(URL, REF, PATH_IN_REPO, "git"), out.output().lines().toList());
    assertFalse(Files.exists(Path.of("/tmp/pwned")), "nothing ran");
    // git: pull.tf uploads no bundle (its aws_s3_object iterates over no file unless s3).
    assertEquals("git", r.tfvars().path("pull_source").asText());
  }
}
