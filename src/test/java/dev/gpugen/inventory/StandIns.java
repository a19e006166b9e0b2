package dev.gpugen.inventory;

import dev.gpugen.cli.InventoryCommand;
import dev.gpugen.inventory.Ec2StandIn.Instance;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** Shared test plumbing: the small fleet, settings pointing at a stand-in, running the command. */
public final class StandIns {
  /** Fake credentials the stand-in accepts; the real SDK signs with them. */
  public static final StaticCredentialsProvider CREDENTIALS =
      StaticCredentialsProvider.create(
          AwsBasicCredentials.create(Ec2StandIn.ACCESS_KEY_ID, "secret"));

  /** The settings file of the small fleet: the shape the render writes. */
  public static final Path SMALL_FLEET_CONFIG =
      Path.of("src/test/resources/inventory/small-fleet.gpugen-inventory.json");

  /** The expected {@code --list} of the small fleet. */
  public static final Path SMALL_FLEET_LIST =
      Path.of("src/test/resources/inventory/small-fleet.list.json");

  private StandIns() {}

  /** What a command run printed. */
  public record Run(int code, String out, String err) {}

  /**
   * The small fleet: pools with dashes, spot and on-demand, a public IP, a hostile Name tag, two
   * instances named alike, one named like a group, a name with a space, a pool missing from the
   * settings, one without a Name tag; plus instances that must never appear.
   */
  public static List<Instance> smallFleet() {
    return List.of(
        node(1, "a100-train", "p4d.24xlarge", "us-east-1a", "demo-a100-train-0"),
        node(2, "a100-train", "p4d.24xlarge", "us-east-1b", "demo-a100-train-1").withSpot(),
        node(3, "h100-infer", "p5.48xlarge", "us-east-1a", "demo-h100-infer-0")
            .withSpot()
            .withPublicIp("203.0.113.10"),
        node(4, "h100-infer", "p5.48xlarge", "us-east-1c", "{{ lookup('pipe','id') }}"),
        node(5, "a100-train", "p4d.24xlarge", "us-east-1a", "twin"),
        node(6, "a100-train", "p4d.24xlarge", "us-east-1b", "twin"),
        node(7, "a100-train", "p4d.24xlarge", "us-east-1c", "spot"),
        node(8, "cpu-misc", "m7i.2xlarge", "us-east-1a", "cpu node"),
        node(9, "h100-infer", "p5.48xlarge", "us-east-1b", null)
            .withTag("Owner", "{% for x in range(9) %}boom{% endfor %}"),
        Instance.of(
            "i-0f00000000000000a",
            "p4d.24xlarge",
            "us-east-1a",
            Fleet.tags("other", "prod", "a100-train", "other-cluster-node")),
        Instance.of(
            "i-0f00000000000000b",
            "p4d.24xlarge",
            "us-east-1a",
            Fleet.tags("demo", "staging", "a100-train", "staging-node")),
        node(12, "a100-train", "p4d.24xlarge", "us-east-1a", "stopped-node").withState("stopped"),
        node(13, "a100-train", "p4d.24xlarge", "us-east-1a", "pending-node").withState("pending"));
  }

  private static Instance node(int n, String pool, String type, String az, String name) {
    Map<String, String> tags = Fleet.tags("demo", "prod", pool, name == null ? "" : name);
    if (name == null) {
      tags.remove("Name");
    }
    return Instance.of(String.format("i-0a%015d", n), type, az, tags);
  }

  /** What the SDK makes of a stand-in instance (for the pure builder tests). */
  public static HostFacts facts(Instance i) {
    return new HostFacts(
        i.instanceId(),
        "us-east-1",
        i.instanceType(),
        Optional.ofNullable(i.availabilityZone()),
        i.state(),
        Optional.ofNullable(i.lifecycle()),
        Optional.ofNullable(i.privateIp()),
        Optional.ofNullable(i.publicIp()),
        Optional.ofNullable(i.privateDns()),
        Optional.ofNullable(i.launchTime()),
        i.tags(),
        Optional.ofNullable(i.imageId()),
        Optional.ofNullable(i.placementGroup()),
        Optional.of(Ec2StandIn.OWNER_ID));
  }

  /** Settings for demo/prod in us-east-1 against {@code standIn}, cache in {@code cacheDir}. */
  public static Map<String, String> env(Ec2StandIn standIn, Path cacheDir, String... more) {
    Map<String, String> env = new HashMap<>();
    env.put("GPUGEN_CLUSTER", "demo");
    env.put("GPUGEN_ENVIRONMENT", "prod");
    env.put("GPUGEN_REGIONS", "us-east-1");
    env.put("GPUGEN_EC2_ENDPOINT", standIn.endpoint().toString());
    env.put("GPUGEN_CACHE_DIR", cacheDir.toString());
    env.put("GPUGEN_API_CALL_TIMEOUT_SECONDS", "10");
    env.put("GPUGEN_MAX_ATTEMPTS", "3");
    for (int i = 0; i + 1 < more.length; i += 2) {
      if (more[i + 1] == null) {
        env.remove(more[i]);
      } else {
        env.put(more[i], more[i + 1]);
      }
    }
    return env;
  }

  /** The command's context with the stand-in's credentials and no profile region. */
  public static InventoryCommand.Context context(Map<String, String> env, Clock clock) {
    return new InventoryCommand.Context(
        env, clock, config -> new Ec2InstanceSource(config, CREDENTIALS), Optional::empty);
  }

  /**
   * As {@link #context(Map, Clock)}, with EC2 NextToken chains cut after {@code maxPages} pages
   * instead of the product's 1,000, so a test can prove the limit with a few pages.
   */
  public static InventoryCommand.Context context(
      Map<String, String> env, Clock clock, int maxPages) {
    return new InventoryCommand.Context(
        env,
        clock,
        config -> new Ec2InstanceSource(config, CREDENTIALS, maxPages),
        Optional::empty);
  }

  /** Runs {@code gpugen inventory ARGS} in-process. */
  public static Run run(InventoryCommand.Context context, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        new CommandLine(new InventoryCommand(context))
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  /**
   * A manifest-only jar in {@code dir}: {@code java -jar} it runs gpugen's real main on the test
   * classpath, as the rendered script runs the shaded jar.
   */
  public static Path testJar(Path dir) throws IOException {
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> urls = new java.util.ArrayList<>();
    for (String entry : classpath.split(java.io.File.pathSeparator)) {
      if (!entry.isBlank()) {
        urls.add(Path.of(entry).toAbsolutePath().toUri().toString());
      }
    }
    java.util.jar.Manifest manifest = new java.util.jar.Manifest();
    java.util.jar.Attributes main = manifest.getMainAttributes();
    main.put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
    main.put(java.util.jar.Attributes.Name.MAIN_CLASS, dev.gpugen.cli.Main.class.getName());
    main.put(java.util.jar.Attributes.Name.CLASS_PATH, String.join(" ", urls));
    Path jar = dir.resolve("gpugen-test.jar");
    try (java.io.OutputStream out = Files.newOutputStream(jar);
        java.util.jar.JarOutputStream jarOut = new java.util.jar.JarOutputStream(out, manifest)) {
      jarOut.finish(); // The manifest is the whole jar.
    }
    return jar;
  }

  /**
   * Runs {@code java -jar JAR ARGS} in {@code dir} with exactly {@code env} (plus PATH, LANG),
   * bounded by three minutes.
   */
  public static Run exec(Path jar, Path dir, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-jar");
    command.add(jar.toString());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().clear();
    pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    pb.environment().put("LANG", "C.UTF-8");
    pb.environment().putAll(env);
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = dev.gpugen.testing.RealTools.start(pb);
    if (!p.waitFor(180, java.util.concurrent.TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not finish in 180 s");
    }
    return new Run(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  /**
   * Asserts a failure as the inventory must fail: exit {@code code}, nothing on stdout, one line on
   * stderr with every fragment, no stack trace.
   */
  public static void assertFailure(Run run, int code, String... fragments) {
    org.junit.jupiter.api.Assertions.assertEquals(code, run.code(), run.err());
    org.junit.jupiter.api.Assertions.assertEquals("", run.out(), "nothing on stdout");
    List<String> lines = run.err().lines().toList();
    org.junit.jupiter.api.Assertions.assertEquals(
        1, lines.size(), "one line on stderr: " + run.err());
    org.junit.jupiter.api.Assertions.assertTrue(
        lines.get(0).startsWith("gpugen inventory: error: "), run.err());
    for (String fragment : fragments) {
      org.junit.jupiter.api.Assertions.assertTrue(
          run.err().contains(fragment), "want \"" + fragment + "\" in " + run.err());
    }
    org.junit.jupiter.api.Assertions.assertFalse(run.err().contains("\tat "), "no stack trace");
  }

  /**
   * Compares {@code actual} with the golden file, or rewrites it under {@code
   * -Dgpugen.updateGolden=true}.
   */
  public static void assertGolden(Path expected, String actual) throws IOException {
    if (Boolean.getBoolean("gpugen.updateGolden")) {
      Files.createDirectories(expected.getParent());
      Files.writeString(expected, actual, StandardCharsets.UTF_8);
      return;
    }
    String want = Files.readString(expected, StandardCharsets.UTF_8);
    org.junit.jupiter.api.Assertions.assertEquals(
        want, actual, "differs from " + expected + " (-Dgpugen.updateGolden=true rewrites it)");
  }
}
