package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.testing.RealTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * HashiCorp's own HCL parser (hcl/v2, compiled to WASM in the npm package {@code @cdktf/hcl2json})
 * through the committed wrapper {@code tools/hcl2json/hcl2json}. It rejects invalid HCL with
 * file:line:col and prints the body as JSON: blocks as lists of objects, expressions as {@code
 * "${...}"} strings, literal strings with their escapes decoded (but {@code $${} and {@code %%{}
 * kept, as in Terraform's JSON syntax).
 *
 * <p>A missing install fails the calling test, never skips it.
 */
final class Hcl2Json {
  static final Path BIN = Path.of("tools/hcl2json/hcl2json");
  static final Path LIB = Path.of("tools/hcl2json/node_modules/@cdktf/hcl2json/package.json");
  private static final ObjectMapper JSON = new ObjectMapper();

  private Hcl2Json() {}

  /** Fails the test, with what to run, unless the parser is installed. */
  static void requireInstalled() {
    if (!Files.isExecutable(BIN) || !Files.isRegularFile(LIB)) {
      fail(
          "HashiCorp's HCL parser is not installed ("
              + LIB
              + " is missing): run scripts/install-test-deps, or npm ci --prefix tools/hcl2json");
    }
  }

  /**
   * Parses every file; all in one run of the parser.
   *
   * @param files file name (e.g. {@code network.tf}) to its text
   * @return file name to the parsed body
   */
  static Map<String, JsonNode> parse(Map<String, String> files) throws IOException {
    requireInstalled();
    Path dir = Files.createTempDirectory("gpugen-hcl");
    try {
      List<String> command = new ArrayList<>(List.of(BIN.toAbsolutePath().toString()));
      for (Map.Entry<String, String> e : files.entrySet()) {
        Path p = dir.resolve(e.getKey());
        Files.createDirectories(p.getParent());
        Files.writeString(p, e.getValue(), StandardCharsets.UTF_8);
        command.add(p.toString());
      }
      Path out = dir.resolve("out.json");
      Path err = dir.resolve("err.txt");
      Process proc =
          RealTools.start(
              new ProcessBuilder(command)
                  .redirectOutput(out.toFile())
                  .redirectError(err.toFile())
                  .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))));
      try {
        if (!proc.waitFor(2, TimeUnit.MINUTES)) {
          proc.destroyForcibly();
          fail("hcl2json timed out");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
      if (proc.exitValue() != 0) {
        fail(
            "HashiCorp's HCL parser rejected the output (exit "
                + proc.exitValue()
                + "):\n"
                + Files.readString(err, StandardCharsets.UTF_8).replace(dir + "/", ""));
      }
      JsonNode root = JSON.readTree(out.toFile());
      Map<String, JsonNode> parsed = new TreeMap<>();
      if (files.size() == 1) {
        parsed.put(files.keySet().iterator().next(), root);
      } else {
        for (String name : files.keySet()) {
          parsed.put(name, root.get(dir.resolve(name).toString()));
        }
      }
      return parsed;
    } finally {
      try (Stream<Path> s = Files.walk(dir)) {
        for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }
}
