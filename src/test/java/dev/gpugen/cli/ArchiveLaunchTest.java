package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The class-data-sharing archive beside a jar ({@code X.jsa} for {@code X.jar}), as the {@code
 * ./gpugen} launcher and the rendered {@code gpugen-inventory} script use it: passed to the JVM
 * only when newer than the jar, and an archive the JVM cannot use (recorded from another jar,
 * corrupt) costs speed, never the run or a line of output. Each script runs a probe jar whose main
 * class reports whether the archive was passed; the JVM's class-load log says where the class came
 * from.
 */
@RealToolsTest
class ArchiveLaunchTest {
  private static final String JVM_FLAGS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

  @TempDir Path tmp;

  /** The probe: its arguments, and whether the JVM was given an archive. */
  public static final class Probe {
    public static void main(String[] args) {
      boolean archive =
          ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
              .anyMatch(a -> a.startsWith("-XX:SharedArchiveFile="));
      System.out.println("probe " + String.join(" ", args) + " archive=" + archive);
    }
  }

  static Stream<String> scripts() {
    return Stream.of("gpugen", "templates/ansible/gpugen-inventory");
  }

  @ParameterizedTest
  @MethodSource("scripts")
  void aCurrentArchiveIsUsed(String script) throws Exception {
    Path jar = probeJar("probe.jar", false);
    Path jsa = record(jar);
    age(jar, jsa, 10);
    Run run = launch(script, jar);
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().endsWith("--list archive=true\n"), run.output());
    assertTrue(run.probeSource().startsWith("shared objects file"), run.classLoads());
  }

  @ParameterizedTest
  @MethodSource("scripts")
  void anArchiveOlderThanTheJarIsNotPassed(String script) throws Exception {
    Path jar = probeJar("probe.jar", false);
    Path jsa = record(jar);
    age(jar, jsa, -10); // the jar was rebuilt after the archive
    Run run = launch(script, jar);
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().endsWith("--list archive=false\n"), run.output());
    assertTrue(run.probeSource().startsWith("file:"), run.classLoads());
  }

  @ParameterizedTest
  @MethodSource("scripts")
  void anArchiveOfAnotherJarIsRefusedQuietly(String script) throws Exception {
    Path jar = probeJar("probe.jar", false);
    Path jsa = record(jar);
    probeJar("probe.jar", true); // a different jar at the same path, the archive still newer
    age(jar, jsa, 10);
    Run run = launch(script, jar);
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().endsWith("--list archive=true\n"), run.output());
    assertFalse(run.output().contains("]"), "no JVM log line: " + run.output());
    assertFalse(run.output().toLowerCase().contains("warning"), run.output());
    assertTrue(run.probeSource().startsWith("file:"), run.classLoads());
  }

  @ParameterizedTest
  @MethodSource("scripts")
  void aCorruptArchiveIsRefusedQuietly(String script) throws Exception {
    Path jar = probeJar("probe.jar", false);
    Path jsa = record(jar);
    byte[] bytes = Files.readAllBytes(jsa);
    for (int i = 0; i < bytes.length; i += 97) {
      bytes[i] ^= 0x5a;
    }
    Files.write(jsa, bytes);
    age(jar, jsa, 10);
    Run run = launch(script, jar);
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().endsWith("--list archive=true\n"), run.output());
    assertFalse(run.output().contains("]"), "no JVM log line: " + run.output());
    assertFalse(run.output().toLowerCase().contains("warning"), run.output());
    assertTrue(run.probeSource().startsWith("file:"), run.classLoads());
  }

  /** A jar of the probe alone; {@code padded} adds an entry, so the jar differs in size. */
  private Path probeJar(String name, boolean padded) throws IOException {
    Path jar = tmp.resolve(name);
    writeProbeJar(jar, padded);
    return jar;
  }

  /** Writes a jar of the probe alone at {@code jar} (other launcher tests run it too). */
  static void writeProbeJar(Path jar, boolean padded) throws IOException {
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, Probe.class.getName());
    String entry = Probe.class.getName().replace('.', '/') + ".class";
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream jarOut = new JarOutputStream(out, manifest);
        InputStream in = Probe.class.getResourceAsStream("/" + entry)) {
      jarOut.putNextEntry(new JarEntry(entry));
      in.transferTo(jarOut);
      if (padded) {
        jarOut.putNextEntry(new JarEntry("padding.txt"));
        jarOut.write(new byte[4096]);
      }
    }
  }

  /** Records the archive as the launcher does: the classes a run loads, then a static dump. */
  private Path record(Path jar) throws Exception {
    Path classes = tmp.resolve("probe.classes");
    Path jsa = tmp.resolve(jar.getFileName().toString().replace(".jar", ".jsa"));
    java("-XX:DumpLoadedClassList=" + classes, "-jar", jar.toString());
    java(
        "-Xshare:dump",
        "-XX:SharedClassListFile=" + classes,
        "-XX:SharedArchiveFile=" + jsa,
        "-cp",
        jar.toString());
    assertTrue(Files.size(jsa) > 0, "archive recorded");
    return jsa;
  }

  private void java(String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(JVM_FLAGS.split(" ")));
    command.addAll(List.of(args));
    RealTools.Result r = RealTools.run(tmp, Duration.ofSeconds(120), Map.of(), command);
    assertEquals(0, r.exitCode(), r.output());
  }

  /** Sets the archive's modification time {@code seconds} after the jar's. */
  private static void age(Path jar, Path jsa, int seconds) throws IOException {
    long jarTime = Files.getLastModifiedTime(jar).toMillis();
    Files.setLastModifiedTime(jsa, FileTime.fromMillis(jarTime + seconds * 1000L));
  }

  /** Output without the JVM's note of JAVA_TOOL_OPTIONS, and the class-load log. */
  private record Run(int exitCode, String output, String classLoads) {
    /** Where the probe's class came from, as the class-load log says. */
    String probeSource() {
      String marker = Probe.class.getName() + " source: ";
      return classLoads
          .lines()
          .filter(l -> l.contains(marker))
          .map(l -> l.substring(l.indexOf(marker) + marker.length()))
          .findFirst()
          .orElse("(not loaded)");
    }
  }

  private Run launch(String script, Path jar) throws Exception {
    Path log = tmp.resolve("class-load.log");
    Files.deleteIfExists(log);
    Map<String, String> env = new HashMap<>();
    env.put("GPUGEN_JAR", jar.toString());
    env.put("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + log);
    RealTools.Result r =
        RealTools.run(
            tmp,
            Duration.ofSeconds(60),
            env,
            "/bin/sh",
            RealTools.repoRoot().resolve(script).toString(),
            "--list");
    String output =
        r.output()
            .lines()
            .filter(l -> !l.startsWith("Picked up JAVA_TOOL_OPTIONS"))
            .map(l -> l + "\n")
            .reduce("", String::concat);
    return new Run(r.exitCode(), output, Files.exists(log) ? Files.readString(log) : "");
  }
}
