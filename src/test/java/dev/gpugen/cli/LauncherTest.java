package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code ./gpugen} launcher script, run by a real POSIX shell. */
@RealToolsTest
class LauncherTest {
  @TempDir Path tmp;

  /** A PATH with the tools the launcher needs before it looks for java, and no java. */
  @Test
  void withoutJavaOnThePathItSaysWhatToInstall() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path dirname = Files.copy(Path.of("/usr/bin/dirname"), bin.resolve("dirname"));
    assertTrue(dirname.toFile().setExecutable(true));
    RealTools.Result r =
        RealTools.run(
            tmp,
            Duration.ofSeconds(30),
            Map.of("PATH", bin.toString(), "GPUGEN_JAR", ""),
            "/bin/sh",
            RealTools.repoRoot().resolve("gpugen").toString(),
            "--version");
    assertEquals(3, r.exitCode(), r.output());
    assertEquals("gpugen needs a JDK 17 or newer (java not found on PATH)\n", r.output());
  }

  /**
   * A GPUGEN_JAR naming no file is named back without its control bytes: they would drive the
   * terminal.
   */
  @Test
  void aMissingGpugenJarIsNamedWithoutItsEscapeSequences() throws Exception {
    String hostile = tmp + "/none\u001b]2;PWNED\u0007\u001b[31mRED\u009b.jar";
    RealTools.Result r = versionWithJar(hostile);
    assertEquals(3, r.exitCode(), r.output());
    assertEquals(
        "gpugen: GPUGEN_JAR=" + tmp + "/none?]2;PWNED??[31mRED??.jar: no such file\n", r.output());
    // Backslash escapes as text, which dash's echo would turn into ESC and BEL: shown as written.
    String escapes = tmp + "/x\\033]2;PWNED\\007.jar";
    RealTools.Result text = versionWithJar(escapes);
    assertEquals(3, text.exitCode(), text.output());
    assertEquals("gpugen: GPUGEN_JAR=" + escapes + ": no such file\n", text.output());
  }

  /** {@code gpugen --version} through the launcher with GPUGEN_JAR set to {@code jar}. */
  private RealTools.Result versionWithJar(String jar) throws Exception {
    return RealTools.run(
        tmp,
        Duration.ofSeconds(30),
        Map.of("PATH", "/usr/bin:/bin", "GPUGEN_JAR", jar),
        "/bin/sh",
        RealTools.repoRoot().resolve("gpugen").toString(),
        "--version");
  }

  /**
   * The launcher rebuilds the jar when a source is newer than it, and only then; a source folder
   * that is missing (find reports an error) is not a reason to rebuild at every start. The build is
   * a stand-in mvnw that records each call and leaves a newer jar.
   */
  @Test
  void itRebuildsWhenASourceIsNewerThanTheJarAndOnlyThen() throws Exception {
    Path checkout = tmp.resolve("checkout");
    Path source = checkout.resolve("src/main/java/A.java");
    Files.createDirectories(source.getParent());
    Files.createDirectories(checkout.resolve("src/vendor"));
    Files.createDirectories(checkout.resolve("templates"));
    Files.writeString(source, "class A {}\n");
    Files.writeString(checkout.resolve("templates/t.ftl"), "x\n");
    Files.writeString(checkout.resolve("pom.xml"), "<project/>\n");
    Path launcher = Files.copy(RealTools.repoRoot().resolve("gpugen"), checkout.resolve("gpugen"));
    Path mvnw = checkout.resolve("mvnw");
    Files.writeString(
        mvnw,
        "#!/bin/sh\n"
            + "here=$(dirname \"$0\")\n"
            + "echo build >> \"$here/builds.log\"\n"
            + "touch \"$here/target/gpugen.jar\"\n");
    assertTrue(launcher.toFile().setExecutable(true) && mvnw.toFile().setExecutable(true));
    Path jar = Files.createDirectories(checkout.resolve("target")).resolve("gpugen.jar");
    ArchiveLaunchTest.writeProbeJar(jar, false);
    long now = System.currentTimeMillis();
    try (Stream<Path> all = Files.walk(checkout)) {
      for (Path p : all.toList()) {
        Files.setLastModifiedTime(p, FileTime.fromMillis(now - 100_000));
      }
    }
    Files.setLastModifiedTime(jar, FileTime.fromMillis(now - 50_000));
    Path builds = checkout.resolve("builds.log");

    assertEquals("probe --version", launch(launcher));
    assertFalse(Files.exists(builds), "nothing newer than the jar: no build");

    Files.setLastModifiedTime(source, FileTime.fromMillis(now - 10_000));
    assertEquals("probe --version", launch(launcher));
    assertEquals(List.of("build"), Files.readAllLines(builds), "an edited source: one build");
    assertEquals("probe --version", launch(launcher));
    assertEquals(List.of("build"), Files.readAllLines(builds), "built: no second build");

    Files.delete(checkout.resolve("src/vendor"));
    assertEquals("probe --version", launch(launcher));
    assertEquals(List.of("build"), Files.readAllLines(builds), "find's error alone: no build");
  }

  /** Runs the launcher with --version; the probe's line, without its archive note. */
  private String launch(Path launcher) throws Exception {
    RealTools.Result r =
        RealTools.run(
            tmp,
            Duration.ofSeconds(120),
            Map.of("GPUGEN_JAR", ""),
            launcher.toString(),
            "--version");
    assertEquals(0, r.exitCode(), r.output());
    List<String> lines = r.output().lines().filter(l -> l.startsWith("probe ")).toList();
    assertEquals(1, lines.size(), r.output());
    return lines.get(0).replaceAll(" archive=(true|false)$", "");
  }

  /**
   * The JVM gets transparent huge pages for its heap exactly where the kernel hands them out on
   * request (madvise mode); in "always" mode it has them anyway, and where there are none the flag
   * would make the JVM print a warning. The machine's own mode decides which branch this checks.
   */
  @Test
  void theHeapAsksForTransparentHugePagesOnlyInMadviseMode() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path java = bin.resolve("java");
    Files.writeString(java, "#!/bin/sh\necho \"java $*\"\n");
    assertTrue(java.toFile().setExecutable(true));
    Path jar = Files.writeString(tmp.resolve("any.jar"), "");
    RealTools.Result r =
        RealTools.run(
            tmp,
            Duration.ofSeconds(30),
            Map.of("PATH", bin + ":/usr/bin:/bin", "GPUGEN_JAR", jar.toString()),
            "/bin/sh",
            RealTools.repoRoot().resolve("gpugen").toString(),
            "--version");
    assertEquals(0, r.exitCode(), r.output());
    Path mode = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    boolean madvise = Files.isReadable(mode) && Files.readString(mode).contains("[madvise]");
    assertEquals(madvise, r.output().contains(" -XX:+UseTransparentHugePages "), r.output());
    assertTrue(r.output().startsWith("java "), r.output());
  }
}
