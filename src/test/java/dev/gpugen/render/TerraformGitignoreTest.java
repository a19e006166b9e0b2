package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rendered terraform/.gitignore, as git itself reads it. */
@RealToolsTest
class TerraformGitignoreTest {
  @Test
  void stateSavedPlansAndTheProviderCacheStayOutOfGitButTheLockFileDoesNot(@TempDir Path repo)
      throws Exception {
    Rendered r = Rendered.of(Path.of("examples/aws-h100/cluster.yaml"));
    Path tf = repo.resolve("terraform");
    Files.createDirectories(tf);
    Files.writeString(
        tf.resolve(".gitignore"), r.terraform().get(".gitignore"), StandardCharsets.UTF_8);
    Map<String, String> env = Map.of("GIT_CONFIG_GLOBAL", "/dev/null", "GIT_CONFIG_NOSYSTEM", "1");
    RealTools.run(repo, Duration.ofSeconds(30), env, "git", "init", "-q").assertOk();
    List<String> ignored =
        List.of(
            "terraform.tfstate",
            "terraform.tfstate.backup",
            "terraform.tfstate.1733000000.backup",
            "gpu.tfplan",
            "tfplan",
            ".terraform/providers/x",
            "crash.log");
    List<String> kept = List.of("versions.tf", ".terraform.lock.hcl", "terraform.tfvars.json");
    for (String f : ignored) {
      assertEquals(
          0,
          RealTools.run(
                  repo, Duration.ofSeconds(30), env, "git", "check-ignore", "-q", "terraform/" + f)
              .exitCode(),
          f + " must be ignored");
    }
    for (String f : kept) {
      assertEquals(
          1,
          RealTools.run(
                  repo, Duration.ofSeconds(30), env, "git", "check-ignore", "-q", "terraform/" + f)
              .exitCode(),
          f + " must not be ignored");
    }
  }
}
