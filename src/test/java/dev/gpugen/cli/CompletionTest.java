package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpugen.Cli;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The script of {@code gpugen generate-completion}, loaded into a real bash as the README says,
 * completes subcommands, options and option values (zsh loads the same script via bashcompinit).
 */
@RealToolsTest
class CompletionTest {
  @TempDir Path tmp;

  @Test
  void bashCompletesCommandsOptionsAndValues() throws Exception {
    Cli gen = Cli.run("generate-completion");
    assertEquals(0, gen.exit(), gen.toString());
    Path script = Files.writeString(tmp.resolve("gpugen.bash"), gen.out());
    assertEquals("init inventory", complete(script, "gpugen", "in"));
    assertEquals("inventory", complete(script, "gpugen", "inv"));
    assertEquals("h100 h200 b200 a100 l4", complete(script, "gpugen", "init", "--gpu", ""));
    assertEquals("aws gcp static", complete(script, "gpugen", "init", "--provider", ""));
    assertEquals("--all-envs", complete(script, "gpugen", "render", "--all-"));
    assertEquals("--allow-replace", complete(script, "gpugen", "render", "--allo"));
  }

  /** COMPREPLY for the command line {@code words}, the cursor at the end of the last word. */
  private String complete(Path script, String... words) throws Exception {
    StringBuilder quoted = new StringBuilder();
    for (String w : words) {
      quoted.append(" '").append(w).append('\'');
    }
    String line = String.join(" ", words);
    String bash =
        "source "
            + script
            + " 2>/dev/null\n"
            + "COMP_WORDS=("
            + quoted
            + " )\n"
            + "COMP_CWORD="
            + (words.length - 1)
            + "\nCOMP_LINE='"
            + line
            + "'\nCOMP_POINT=${#COMP_LINE}\n"
            + "_complete_gpugen 2>/dev/null\n"
            + "echo \"${COMPREPLY[*]}\"\n";
    RealTools.Result r =
        RealTools.run(tmp, Duration.ofSeconds(30), Map.of(), "bash", "--norc", "-c", bash)
            .assertOk();
    return r.output().strip();
  }
}
