package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two command lines the rendered wrapper runs for Ansible skip picocli; they must behave as
 * picocli would, and nothing else may take that path.
 */
class InventoryAnsibleFormTest {
  @TempDir Path tmp;

  private record Run(Optional<Integer> code, String out, String err) {}

  private static Run ansibleForm(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Optional<Integer> code =
        InventoryCommand.runAsAnsible(args, new PrintWriter(out), new PrintWriter(err));
    return new Run(code, out.toString(), err.toString());
  }

  private static Run picocli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
    return new Run(Optional.of(code), out.toString(), err.toString());
  }

  @Test
  void theWrappersTwoFormsAnswerAsPicocliWould() throws Exception {
    // Settings that fail to read: the same exit code and one-line message either way, and
    // nothing on stdout.
    Path bad = Files.writeString(tmp.resolve("gpugen-inventory.json"), "{\"cluster\": 7}\n");
    for (String[] args :
        List.of(
            new String[] {"inventory", "--config", bad.toString(), "--list"},
            new String[] {"inventory", "--config", bad.toString(), "--host", "node-1"},
            new String[] {"inventory", "--config", tmp.resolve("absent.json").toString(), "--list"},
            new String[] {"inventory", "--config", tmp.toString(), "--list"})) {
      Run fast = ansibleForm(args);
      Run slow = picocli(args);
      assertTrue(fast.code().isPresent(), String.join(" ", args));
      assertEquals(slow, fast, String.join(" ", args));
      assertTrue(fast.code().get() != 0 && fast.out().isEmpty(), fast.toString());
      assertTrue(fast.err().startsWith("gpugen inventory: error: "), fast.err());
    }
  }

  @Test
  void everyOtherCommandLineGoesThroughPicocli() {
    for (String[] args :
        List.of(
            new String[] {"inventory", "--list", "--config", "x.json"},
            new String[] {"inventory", "--config", "x.json", "--list", "--verbose"},
            new String[] {"inventory", "--config", "x.json", "--list", "--refresh-cache"},
            new String[] {"inventory", "--config", "--list", "x.json"},
            new String[] {"inventory", "--config", "x.json", "--host", "--list"},
            new String[] {"inventory", "--config", "x.json", "--host"},
            new String[] {"inventory", "--config", "x.json"},
            new String[] {"inventory", "--list"},
            new String[] {"render", "--config", "x.json", "--list"},
            new String[] {})) {
      assertEquals(Optional.empty(), ansibleForm(args).code(), String.join(" ", args));
    }
  }
}
