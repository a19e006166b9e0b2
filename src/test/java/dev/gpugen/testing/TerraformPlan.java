package dev.gpugen.testing;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Plans a rendered Terraform folder with the real Terraform CLI and the real {@code hashicorp/aws}
 * provider binary, offline: {@code terraform init} installs the provider from a filesystem mirror
 * (a CLI configuration with {@code provider_installation { filesystem_mirror {...} }} in a temp
 * dir, passed through {@code TF_CLI_CONFIG_FILE}), and {@code terraform test} runs a plan against
 * {@code mock_provider "aws"}. The mock answers reads and fills computed attributes with fake
 * values, but the real provider still validates every resource's configuration (enum values, ARNs,
 * conflicting arguments): Terraform's mock delegates {@code ValidateResourceConfig} to the provider
 * (https://developer.hashicorp.com/terraform/language/tests/mocking).
 *
 * <p>The mirror is {@value #DEFAULT_MIRROR} unless {@code -Dgpugen.tfMirror=DIR} or {@code
 * GPUGEN_TF_MIRROR} (as for {@code scripts/install-test-deps}) says otherwise; the binary is {@code
 * terraform} on PATH. Either missing fails the test with what to install (never skips). The
 * render's {@code versions.tf} is planned as rendered: a mirrored provider outside its version
 * constraint fails {@link #init}, so a passing plan proves the pin users get.
 */
public final class TerraformPlan {
  private TerraformPlan() {}

  public static final String DEFAULT_MIRROR = "/opt/tf-plugins";
  private static final String AWS = "registry.terraform.io/hashicorp/aws";
  private static final Duration INIT_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration TEST_TIMEOUT = Duration.ofMinutes(15);

  /** The tools found: Terraform's version and the mirrored AWS provider's version. */
  public record Tools(Path terraform, String terraformVersion, Path mirror, String awsVersion) {}

  private static volatile Tools tools;

  /**
   * Finds terraform (>= 1.7, the first release with {@code mock_provider}) and the AWS provider in
   * the mirror; fails the calling test with what is missing.
   */
  public static Tools tools() throws IOException, InterruptedException {
    Tools t = tools;
    if (t == null) {
      String env = System.getenv().getOrDefault("GPUGEN_TF_MIRROR", DEFAULT_MIRROR);
      t = find(Path.of(System.getProperty("gpugen.tfMirror", env)));
      tools = t;
    }
    return t;
  }

  /** As {@link #tools()}, for the given mirror, uncached. */
  static Tools find(Path mirror) throws IOException, InterruptedException {
    Optional<Path> bin = onPath("terraform");
    if (bin.isEmpty()) {
      fail(
          "terraform is not on PATH: Terraform >= 1.7 is needed to plan renders with"
              + " mock_provider (this machine kind has it at /usr/local/bin/terraform;"
              + " scripts/install-test-deps checks it)");
    }
    RealTools.Result v =
        RealTools.run(
                Path.of("/"),
                Duration.ofSeconds(30),
                cliEnv(),
                bin.get().toString(),
                "version",
                "-json")
            .assertOk();
    JsonNode json = new ObjectMapper().readTree(v.output().substring(v.output().indexOf('{')));
    String tfVersion = json.path("terraform_version").asText();
    if (compare(tfVersion, "1.7.0") < 0) {
      fail("terraform " + tfVersion + " at " + bin.get() + " is too old: mock_provider needs 1.7");
    }
    Path awsDir = mirror.resolve(AWS);
    String awsVersion = null;
    if (Files.isDirectory(awsDir)) {
      try (Stream<Path> s = Files.list(awsDir)) {
        awsVersion =
            s.filter(p -> hasProviderBinary(p.resolve("linux_amd64")))
                .map(p -> p.getFileName().toString())
                .max(TerraformPlan::compare)
                .orElse(null);
      }
    }
    if (awsVersion == null) {
      fail(
          "no hashicorp/aws provider binary in the filesystem mirror "
              + awsDir
              + "/VERSION/linux_amd64/terraform-provider-aws_*: install one there (this machine"
              + " kind has 5.100.0) or point -Dgpugen.tfMirror at a mirror that has it;"
              + " scripts/install-test-deps checks it");
    }
    return new Tools(bin.get(), tfVersion, mirror, awsVersion);
  }

  /**
   * A Terraform folder copied to a temp dir and initialised against the mirror.
   *
   * @param dir the copy (the render's terraform/ files; tests/ is where the .tftest.hcl goes)
   * @param env the environment every terraform call in it needs (CLI config, no checkpoint)
   */
  public record Workspace(Path dir, Map<String, String> env) {
    /**
     * Writes {@code tests/NAME.tftest.hcl} and runs {@code terraform test} on it (and only it),
     * with {@code args} added (e.g. {@code -json}).
     */
    public RealTools.Result test(String name, String tftest, String... args)
        throws IOException, InterruptedException {
      Path tests = dir.resolve("tests");
      Files.createDirectories(tests);
      Files.writeString(tests.resolve(name + ".tftest.hcl"), tftest, StandardCharsets.UTF_8);
      List<String> command =
          new ArrayList<>(
              List.of(
                  tools().terraform().toString(),
                  "test",
                  "-no-color",
                  "-filter=tests/" + name + ".tftest.hcl"));
      command.addAll(List.of(args));
      return RealTools.run(dir, TEST_TIMEOUT, env, command.toArray(String[]::new));
    }

    /** Runs {@code terraform ARGS} in the folder, with the folder's environment. */
    public RealTools.Result run(Duration timeout, String... args)
        throws IOException, InterruptedException {
      List<String> command = new ArrayList<>(List.of(tools().terraform().toString()));
      command.addAll(List.of(args));
      return RealTools.run(dir, timeout, env, command.toArray(String[]::new));
    }
  }

  /**
   * Writes {@code files} (names relative to the terraform/ folder) under {@code scratch}, checks
   * that the mirrored AWS provider satisfies their pin, and runs {@code terraform init
   * -backend=false} against the filesystem mirror. Fails the test if either fails.
   */
  public static Workspace init(Path scratch, SortedMap<String, String> files)
      throws IOException, InterruptedException {
    Tools t = tools();
    Path dir = scratch.resolve("terraform");
    Files.createDirectories(dir);
    for (Map.Entry<String, String> f : files.entrySet()) {
      Path p = dir.resolve(f.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, f.getValue(), StandardCharsets.UTF_8);
    }
    Path versions = dir.resolve("versions.tf");
    if (Files.isRegularFile(versions)) {
      checkAwsPin(Files.readString(versions, StandardCharsets.UTF_8), t.awsVersion());
    }
    Path cli = scratch.resolve("terraform.tfrc");
    Files.writeString(
        cli,
        "provider_installation {\n  filesystem_mirror {\n    path    = "
            + hclString(t.mirror().toString())
            + "\n    include = [\"registry.terraform.io/hashicorp/*\"]\n  }\n}\n",
        StandardCharsets.UTF_8);
    Map<String, String> env = new LinkedHashMap<>(cliEnv());
    env.put("TF_CLI_CONFIG_FILE", cli.toString());
    env.put("TF_DATA_DIR", dir.resolve(".terraform").toString());
    RealTools.Result r =
        RealTools.run(
            dir,
            INIT_TIMEOUT,
            env,
            t.terraform().toString(),
            "init",
            "-backend=false",
            "-input=false",
            "-no-color");
    if (r.exitCode() != 0) {
      fail("terraform init against the mirror " + t.mirror() + " failed:\n" + r.output());
    }
    return new Workspace(dir, Map.copyOf(env));
  }

  /** {@code terraform fmt -check -diff -recursive} on a folder: the result, for assertOk. */
  public static RealTools.Result fmtCheck(Path dir) throws IOException, InterruptedException {
    return RealTools.run(
        dir,
        Duration.ofMinutes(1),
        cliEnv(),
        tools().terraform().toString(),
        "fmt",
        "-check",
        "-diff",
        "-recursive",
        "-no-color");
  }

  private static final Pattern AWS_PIN =
      Pattern.compile("source\\s*=\\s*\"hashicorp/aws\"\\s*\\n\\s*version\\s*=\\s*\"([^\"]*)\"");

  /**
   * Fails unless the installed hashicorp/aws version satisfies the constraint {@code versions.tf}
   * gives it: the plans then prove the pin a user's {@code terraform init} resolves. Returns the
   * constraint ("" when the file pins no AWS provider).
   */
  static String checkAwsPin(String versionsTf, String installed) {
    if (!versionsTf.contains("\"hashicorp/aws\"")) {
      return "";
    }
    Matcher m = AWS_PIN.matcher(versionsTf);
    if (!m.find()) {
      fail(
          "versions.tf pins hashicorp/aws in a form the plan harness does not read:\n"
              + versionsTf);
    }
    String constraint = m.group(1);
    if (!satisfies(installed, constraint)) {
      fail(
          "the mirrored hashicorp/aws "
              + installed
              + " is outside the render's pin \""
              + constraint
              + "\": the plans would not prove the provider users get; install one inside it, or"
              + " change the pin in templates/terraform/versions.tf to the range the tests prove");
    }
    return constraint;
  }

  /**
   * Whether {@code version} meets a Terraform version constraint: comma-separated {@code =}, {@code
   * !=}, {@code >}, {@code >=}, {@code <}, {@code <=} and {@code ~>} terms
   * (https://developer.hashicorp.com/terraform/language/expressions/version-constraints).
   */
  static boolean satisfies(String version, String constraint) {
    for (String term : constraint.split(",")) {
      Matcher t = Pattern.compile("\\s*(=|!=|>=|<=|>|<|~>)?\\s*([0-9][0-9.]*)\\s*").matcher(term);
      if (!t.matches()) {
        fail("a version constraint term the plan harness does not read: \"" + term + "\"");
      }
      String op = t.group(1) == null ? "=" : t.group(1);
      String v = t.group(2);
      int c = compare(version, v);
      boolean ok =
          switch (op) {
            case "=" -> c == 0;
            case "!=" -> c != 0;
            case ">" -> c > 0;
            case ">=" -> c >= 0;
            case "<" -> c < 0;
            case "<=" -> c <= 0;
            default -> {
              // "~> X.Y" allows X.Y <= v < (X+1); "~> X.Y.Z" allows X.Y.Z <= v < X.(Y+1).
              String[] parts = v.split("\\.");
              String upper =
                  parts.length >= 3
                      ? parts[0] + "." + (Integer.parseInt(parts[1]) + 1) + ".0"
                      : (Integer.parseInt(parts[0]) + 1) + ".0.0";
              yield c >= 0 && compare(version, upper) < 0;
            }
          };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** A Terraform string literal (for values the harness writes into HCL). */
  public static String hclString(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> b.append(c);
      }
    }
    // "${" and "%{" start template sequences; doubling the sigil makes them literal.
    return b.append('"').toString().replace("${", "$${").replace("%{", "%%{");
  }

  /** Compares dotted numeric versions (1.11.4 vs 1.7.0). */
  static int compare(String a, String b) {
    String[] x = a.split("[.-]");
    String[] y = b.split("[.-]");
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      int p = i < x.length ? num(x[i]) : 0;
      int q = i < y.length ? num(y[i]) : 0;
      if (p != q) {
        return Integer.compare(p, q);
      }
    }
    return 0;
  }

  private static int num(String s) {
    return s.chars().allMatch(Character::isDigit) && !s.isEmpty() ? Integer.parseInt(s) : 0;
  }

  private static boolean hasProviderBinary(Path dir) {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.anyMatch(
          p ->
              p.getFileName().toString().startsWith("terraform-provider-aws")
                  && Files.isExecutable(p));
    } catch (IOException e) {
      return false;
    }
  }

  private static Optional<Path> onPath(String name) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
        return Optional.of(Path.of(d, name));
      }
    }
    return Optional.empty();
  }

  /** No update check, no colour, no interactive prompts; an empty CLI config unless set. */
  private static Map<String, String> cliEnv() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("CHECKPOINT_DISABLE", "1");
    env.put("TF_IN_AUTOMATION", "1");
    env.put("TF_INPUT", "0");
    // A user's CLI config (credentials, other mirrors) must not change what the tests see.
    env.put("TF_CLI_CONFIG_FILE", "/dev/null");
    env.put("TF_PLUGIN_CACHE_DIR", "");
    return env;
  }
}
