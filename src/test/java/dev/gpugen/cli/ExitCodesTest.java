package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.InternalFailure;
import dev.gpugen.failure.InvalidInput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** README's exit code table, by kind of failure. */
class ExitCodesTest {
  @Test
  void eachKindHasItsDocumentedCode() {
    assertEquals(1, ExitCodes.of(new InvalidInput("the spec is invalid")));
    assertEquals(2, ExitCodes.of(InvalidInput.usage("unknown option")));
    assertEquals(3, ExitCodes.of(new EnvironmentFailure("disk full")));
    assertEquals(4, ExitCodes.of(new InternalFailure("a template failed")));
    assertEquals(5, ExitCodes.STEP_FAILED, "README: a step of up or down failed");
    assertEquals(2, ExitCodes.of(InvalidInput.usage("unknown option").prefixed("drift: ")));
  }

  /** gpugen --help lists every code of README's table (it once stopped at 4). */
  @Test
  void theHelpListsEveryCodeOfTheReadmesTable() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    String table = readme.substring(readme.indexOf("## Exit codes"));
    table = table.substring(0, table.indexOf("\n## ", 1));
    List<String> codes =
        Pattern.compile("(?m)^\\| (\\d) \\|")
            .matcher(table)
            .results()
            .map(m -> m.group(1))
            .toList();
    assertEquals(List.of("0", "1", "2", "3", "4", "5"), codes, "README's table");
    Cli help = Cli.run("--help");
    for (String code : codes) {
      assertTrue(
          Pattern.compile("(?m)^ +" + code + " +\\S").matcher(help.out()).find(),
          "--help lists exit code " + code + ":\n" + help.out());
    }
  }
}
