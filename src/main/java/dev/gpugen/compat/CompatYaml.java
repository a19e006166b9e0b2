package dev.gpugen.compat;

import dev.gpugen.failure.InternalFailure;
import dev.gpugen.failure.InvalidInput;
import java.io.IOException;
import java.io.InputStream;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.schema.FailsafeSchema;

/**
 * Reads {@code compat.yaml} into a {@link CompatTable}, by hand: each section's rows are mapped key
 * by key so that every error names the row and the key that is wrong. Unknown keys are errors too,
 * so a misspelt key cannot silently drop a value.
 *
 * <p>The YAML is loaded with the failsafe schema: every scalar arrives as text and this class
 * parses numbers, booleans and versions itself, so {@code 12.10} can never turn into the number
 * 12.1.
 */
final class CompatYaml {
  static final String RESOURCE = "compat.yaml";

  private static final Pattern BRANCH = Pattern.compile("R([0-9]{3})");
  private static final Pattern CVE = Pattern.compile("CVE-[0-9]{4}-[0-9]{4,}");

  private static final List<String> SECTIONS =
      List.of(
          "sources",
          "cuda_releases",
          "cuda_minor_version_compat",
          "driver_branches",
          "lifecycle",
          "driver_known_issues",
          "kernel_modules",
          "gpus",
          "aws_instances",
          "aws_efa_other_types",
          "efa_device_plugin",
          "aws_capacity_blocks",
          "gcp_accelerators",
          "gcp_machines",
          "gpu_operator_releases",
          "gke_versions",
          "container_toolkit",
          "allreduce_busbw",
          "nccl",
          "fsx_lustre",
          "aws_vcpu_quotas",
          "aws_regions",
          "gcp_regions");

  private CompatYaml() {}

  /**
   * Reads the table shipped next to {@link CompatTable} on the classpath: {@code compat.yaml} as
   * the build turned it into a {@link CompatTree} (no YAML parsing at start-up), checked row by row
   * as the YAML is.
   */
  static CompatTable loadResource() {
    try (InputStream in = CompatTable.class.getResourceAsStream(CompatTree.RESOURCE)) {
      if (in == null) {
        throw new InternalFailure(
            CompatTree.RESOURCE
                + " is missing from the classpath (the build writes it from "
                + RESOURCE
                + "; rebuild with ./mvnw package)");
      }
      return fromTree(CompatTree.read(in), RESOURCE);
    } catch (IOException e) {
      throw new InternalFailure("cannot read " + CompatTree.RESOURCE + ": " + e.getMessage(), e);
    }
  }

  /**
   * Parses a table from YAML text.
   *
   * @param label the file name to put in error messages
   * @throws InternalFailure naming the row and key that are wrong
   */
  static CompatTable parse(String yaml, String label) {
    return fromTree(readTree(yaml, label), label);
  }

  /** The YAML as a tree of mappings, lists and text (the failsafe schema: no typed scalars). */
  static Object readTree(String yaml, String label) {
    try {
      LoadSettings settings =
          LoadSettings.builder()
              .setLabel(label)
              .setSchema(new FailsafeSchema())
              .setAllowDuplicateKeys(false)
              .build();
      return new Load(settings).loadFromString(yaml);
    } catch (YamlEngineException e) {
      throw new InternalFailure(label + ": not a valid table: " + e.getMessage(), e);
    }
  }

  /**
   * Builds the table from its tree, checking every row and key.
   *
   * @param label the file name to put in error messages
   */
  static CompatTable fromTree(Object root, String label) {
    Fields top = Fields.of(label, "", root);
    for (String section : SECTIONS) {
      top.child(section);
    }
    top.finish();
    top.child("sources").finishAsSources();

    List<CudaRelease> cuda = rows(top, "cuda_releases", CompatYaml::cudaRelease);
    List<MinorVersionCompat> mvc = rows(top, "cuda_minor_version_compat", CompatYaml::mvc);
    List<DriverBranch> branches = rows(top, "driver_branches", CompatYaml::driverBranch);
    Fields lifecycle = top.child("lifecycle");
    YearMonth asOf =
        lifecycle.optMonth("as_of").orElseThrow(() -> lifecycle.error("as_of", "missing"));
    lifecycle.sources();
    lifecycle.finish();
    List<DriverKnownIssue> knownIssues =
        rows(top, "driver_known_issues", CompatYaml::driverKnownIssue);
    Fields kernel = top.child("kernel_modules");
    int openSince = kernel.branch("open_default_since_branch");
    kernel.sources();
    kernel.finish();
    List<GpuModel> gpus = rows(top, "gpus", CompatYaml::gpu);
    List<AwsInstanceType> aws = rows(top, "aws_instances", CompatYaml::awsInstance);
    Fields efaOther = top.child("aws_efa_other_types");
    List<String> efaOtherTypes = efaOther.texts("types");
    efaOther.sources();
    efaOther.finish();
    EfaDevicePluginChart efaDevicePlugin = efaDevicePlugin(top.child("efa_device_plugin"));
    Fields cb = top.child("aws_capacity_blocks");
    CapacityBlockTypes capacityBlocks =
        new CapacityBlockTypes(
            cb.texts("instance_types"),
            cb.texts("unverified_instance_types"),
            cb.count("termination_lead_minutes"),
            cb.sources());
    cb.finish();
    List<GcpAccelerator> accelerators = rows(top, "gcp_accelerators", CompatYaml::gcpAccelerator);
    List<GcpMachineType> machines = rows(top, "gcp_machines", CompatYaml::gcpMachine);
    List<GpuOperatorRelease> operators =
        rows(top, "gpu_operator_releases", CompatYaml::gpuOperator);
    List<GkeVersion> gkeVersions = rows(top, "gke_versions", CompatYaml::gkeVersion);
    Fields ctk = top.child("container_toolkit");
    Version exactMatchSince = ctk.version("exact_package_match_since");
    Version runtimeConfigSourceSince = ctk.version("runtime_config_source_since");
    ctk.sources();
    List<ContainerToolkitRelease> ctkReleases =
        rows(ctk, "releases", CompatYaml::containerToolkitRelease);
    ctk.finish();
    List<AllReduceBandwidth> busbw = rows(top, "allreduce_busbw", CompatYaml::allReduce);
    Fields ncclFields = top.child("nccl");
    NcclFacts nccl = nccl(ncclFields);
    ncclFields.finish();
    List<LustreDeployment> lustre = rows(top, "fsx_lustre", CompatYaml::lustre);
    List<Ec2VcpuQuota> quotas = rows(top, "aws_vcpu_quotas", CompatYaml::vcpuQuota);
    List<CloudRegion> regions = new ArrayList<>(rows(top, "aws_regions", f -> region("aws", f)));
    regions.addAll(rows(top, "gcp_regions", f -> region("gcp", f)));

    return new CompatTable(
        label,
        cuda,
        mvc,
        branches,
        openSince,
        gpus,
        aws,
        accelerators,
        machines,
        operators,
        exactMatchSince,
        ctkReleases,
        new CompatTable.Extras(
            asOf,
            knownIssues,
            busbw,
            nccl,
            lustre,
            regions,
            efaOtherTypes,
            efaDevicePlugin,
            capacityBlocks,
            quotas,
            gkeVersions,
            runtimeConfigSourceSince));
  }

  private static GkeVersion gkeVersion(Fields f) {
    if (!GkeVersion.MINOR.matcher(f.key()).matches()) {
      throw f.error("", "a GKE minor version like \"1.35\"");
    }
    String date = f.text("end_of_standard_support");
    try {
      return new GkeVersion(f.key(), LocalDate.parse(date), f.sources());
    } catch (DateTimeParseException e) {
      throw f.error("end_of_standard_support", "not a date like 2027-04-11: " + date);
    }
  }

  private static DriverKnownIssue driverKnownIssue(Fields f) {
    List<Version> drivers = new ArrayList<>();
    for (String text : f.texts("drivers")) {
      drivers.add(f.parseVersion("drivers", text));
    }
    if (drivers.isEmpty()) {
      throw f.error("drivers", "missing");
    }
    return new DriverKnownIssue(
        f.key(),
        drivers,
        f.version("fixed_in"),
        f.text("when"),
        f.text("description"),
        f.sources());
  }

  private static AllReduceBandwidth allReduce(Fields f) {
    return new AllReduceBandwidth(
        f.key(), f.count("gpus"), f.count("ring_gbps"), f.optCount("nvls_gbps"), f.sources());
  }

  private static NcclFacts nccl(Fields f) {
    return new NcclFacts(
        f.texts("net_names"),
        f.texts("net_gdr_levels"),
        f.texts("p2p_levels"),
        f.count("max_level_integer"),
        f.texts("algorithms"),
        f.texts("protocols"),
        f.texts("debug_levels"),
        f.count("socket_nthreads_max"),
        f.count("socket_threads_times_socks_max"),
        f.sources());
  }

  private static LustreDeployment lustre(Fields f) {
    List<Integer> throughputs = new ArrayList<>();
    for (String text : f.texts("throughputs")) {
      if (!digits(text, 6)) {
        throw f.error("throughputs", "expected a whole number, got \"" + text + "\"");
      }
      throughputs.add(Integer.parseInt(text));
    }
    return new LustreDeployment(f.key(), f.count("capacity_step_gib"), throughputs, f.sources());
  }

  /** Maps every entry of section {@code name} (row key to row fields) with {@code mapper}. */
  private static <R> List<R> rows(Fields parent, String name, Function<Fields, R> mapper) {
    Fields section = parent.child(name);
    List<R> rows = new ArrayList<>();
    for (String key : section.keys()) {
      Fields row = section.row(key);
      R value;
      try {
        value = mapper.apply(row);
      } catch (IllegalArgumentException e) {
        throw row.error(null, e.getMessage());
      }
      row.finish();
      rows.add(value);
    }
    if (rows.isEmpty()) {
      throw section.error(null, "has no rows");
    }
    return rows;
  }

  private static CudaRelease cudaRelease(Fields f) {
    return new CudaRelease(
        f.keyVersion(), f.version("min_driver"), f.flag("verified", true), f.sources());
  }

  private static MinorVersionCompat mvc(Fields f) {
    return new MinorVersionCompat(
        f.keyCount(), f.version("min_driver"), f.optBranch("mvc_below_branch"), f.sources());
  }

  private static DriverBranch driverBranch(Fields f) {
    int number = f.keyBranch();
    return new DriverBranch(
        f.key(),
        number,
        f.choice(
            "type",
            Map.of(
                "PB", DriverBranch.Type.PRODUCTION,
                "LTSB", DriverBranch.Type.LTSB,
                "NFB", DriverBranch.Type.NEW_FEATURE)),
        f.choice(
            "status",
            Map.of(
                "supported", DriverBranch.Status.SUPPORTED,
                "eol", DriverBranch.Status.END_OF_LIFE,
                "unknown", DriverBranch.Status.UNKNOWN)),
        f.optMonth("eol"),
        f.optCount("max_cuda_major"),
        f.optText("note"),
        f.sources());
  }

  private static GpuModel gpu(Fields f) {
    Map<String, GpuModel.Architecture> architectures = new LinkedHashMap<>();
    for (GpuModel.Architecture a : GpuModel.Architecture.values()) {
      architectures.put(a.name().toLowerCase(Locale.ROOT), a);
    }
    Map<String, GpuModel.KernelModules> flavours = new LinkedHashMap<>();
    for (GpuModel.KernelModules k : GpuModel.KernelModules.values()) {
      flavours.put(k.name().toLowerCase(Locale.ROOT), k);
    }
    return new GpuModel(
        f.key(),
        f.texts("aliases"),
        f.choice("arch", architectures),
        f.optVersion("cc"),
        f.optVersion("min_driver"),
        f.optVersion("min_cuda"),
        f.choice("kernel_modules", flavours),
        f.optBranch("max_branch"),
        f.optCount("max_cuda_major"),
        f.optBranch("recommended_min_branch"),
        f.optVersion("gpu_operator_min_driver_container"),
        f.texts("nvswitch_boards"),
        f.texts("other_boards"),
        f.optCount("reference_hca_ports"),
        f.optCount("reference_link_gbps"),
        f.optText("note"),
        f.sources());
  }

  private static AwsInstanceType awsInstance(Fields f) {
    Optional<AwsInstanceType.MinStack> minStack = Optional.empty();
    if (f.has("min_stack")) {
      Fields s = f.child("min_stack");
      minStack =
          Optional.of(
              new AwsInstanceType.MinStack(
                  s.version("cuda"),
                  s.version("nccl"),
                  s.version("aws_ofi_nccl"),
                  s.version("efa_installer")));
      s.finish();
    }
    return new AwsInstanceType(
        f.key(),
        f.text("gpu"),
        f.count("gpus"),
        f.count("vcpus"),
        f.count("gpu_memory_gib"),
        f.optCount("memory_gib"),
        f.count("network_gbps"),
        f.count("network_cards"),
        f.optCount("max_enis"),
        f.flag("efa"),
        f.flag("efa_card0", true),
        f.has("nvswitch") ? Optional.of(f.flag("nvswitch")) : Optional.empty(),
        f.flag("gdr_required"),
        minStack,
        f.has("cpu") ? f.text("cpu") : "x86_64",
        instanceStore(f.child("instance_store")),
        f.sources());
  }

  private static AwsInstanceType.InstanceStore instanceStore(Fields f) {
    int volumes = f.count("volumes");
    AwsInstanceType.InstanceStore store =
        new AwsInstanceType.InstanceStore(volumes, volumes == 0 ? 0 : f.count("size_gb"));
    f.finish();
    return store;
  }

  private static EfaDevicePluginChart efaDevicePlugin(Fields f) {
    EfaDevicePluginChart chart =
        new EfaDevicePluginChart(f.text("chart_version"), f.texts("instance_types"), f.sources());
    f.finish();
    return chart;
  }

  private static Ec2VcpuQuota vcpuQuota(Fields f) {
    return new Ec2VcpuQuota(
        f.key(), f.text("name"), f.text("market"), f.texts("families"), f.sources());
  }

  private static CloudRegion region(String provider, Fields f) {
    return new CloudRegion(provider, f.key(), f.texts("zones"), f.sources());
  }

  private static GcpAccelerator gcpAccelerator(Fields f) {
    return new GcpAccelerator(f.key(), f.text("gpu"), f.sources());
  }

  private static GcpMachineType gcpMachine(Fields f) {
    OptionalInt count = f.optCount("count");
    boolean pattern = f.key().endsWith("*");
    if (count.isEmpty() && !pattern) {
      throw f.error(
          "count", "required for an exact machine type (only a family pattern may omit it)");
    }
    if (pattern && f.key().indexOf('*') != f.key().length() - 1) {
      throw f.error(null, "a family pattern may only have one '*', at the end");
    }
    return new GcpMachineType(
        f.key(), f.text("accelerator"), count, f.flag("verified", true), f.sources());
  }

  private static GpuOperatorRelease gpuOperator(Fields f) {
    List<Version> alsoDrivers = new ArrayList<>();
    for (String text : f.texts("also_drivers")) {
      alsoDrivers.add(f.parseVersion("also_drivers", text));
    }
    List<Integer> alsoBranches = new ArrayList<>();
    for (String text : f.texts("also_branches")) {
      alsoBranches.add(f.parseBranch("also_branches", text));
    }
    return new GpuOperatorRelease(
        f.keyVersion(),
        f.version("driver"),
        alsoDrivers,
        alsoBranches,
        f.version("container_toolkit"),
        f.version("device_plugin"),
        f.optText("dcgm"),
        f.optText("dcgm_exporter"),
        f.optVersion("nfd"),
        f.flag("cdi_default"),
        f.optText("note"),
        f.sources());
  }

  private static ContainerToolkitRelease containerToolkitRelease(Fields f) {
    List<String> cves = f.texts("fixes_cves");
    for (String cve : cves) {
      if (!CVE.matcher(cve).matches()) {
        throw f.error("fixes_cves", "\"" + cve + "\" is not a CVE id like CVE-2025-23359");
      }
    }
    return new ContainerToolkitRelease(f.keyVersion(), cves, f.optText("known_issue"), f.sources());
  }

  /**
   * {@code text} matches {@code [0-9]{1,max}}. Written out rather than {@code String.matches},
   * which compiles its pattern on every call: the table has hundreds of counts, read at every
   * start.
   */
  private static boolean digits(String text, int max) {
    if (text.isEmpty() || text.length() > max) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  private static boolean hasWhitespace(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (Character.isWhitespace(text.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  /**
   * One YAML mapping and where it sits in the file. Remembers which keys were read so that {@link
   * #finish()} can reject the rest.
   */
  private static final class Fields {
    private final String label;
    private final String path;
    private final String key;
    private final Map<String, Object> map;
    private final Set<String> read = new HashSet<>();

    private Fields(String label, String path, String key, Map<String, Object> map) {
      this.label = label;
      this.path = path;
      this.key = key;
      this.map = map;
    }

    static Fields of(String label, String path, Object value) {
      return of(label, path, "", value);
    }

    private static Fields of(String label, String path, String key, Object value) {
      if (!(value instanceof Map<?, ?> raw)) {
        String where = path.isEmpty() ? "the document" : path;
        throw new InternalFailure(
            label + ": " + where + ": expected a mapping, got " + describe(value));
      }
      Map<String, Object> map = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : raw.entrySet()) {
        if (!(e.getKey() instanceof String k)) {
          throw new InternalFailure(label + ": " + path + ": keys must be text");
        }
        map.put(k, e.getValue());
      }
      return new Fields(label, path, key, map);
    }

    /** The row key this mapping is stored under, e.g. {@code p5.48xlarge}. */
    String key() {
      return key;
    }

    List<String> keys() {
      read.addAll(map.keySet());
      return List.copyOf(map.keySet());
    }

    boolean has(String name) {
      return map.containsKey(name);
    }

    Fields child(String name) {
      read.add(name);
      if (!map.containsKey(name)) {
        throw error(null, "missing key \"" + name + "\"");
      }
      return of(label, join(path, name), map.get(name));
    }

    Fields row(String rowKey) {
      read.add(rowKey);
      return of(label, path + "[" + rowKey + "]", rowKey, map.get(rowKey));
    }

    InternalFailure error(String name, String message) {
      String where = name == null ? path : join(path, name);
      return new InternalFailure(label + ": " + where + ": " + message);
    }

    private static String join(String path, String name) {
      return path.isEmpty() ? name : path + "." + name;
    }

    private static String describe(Object value) {
      if (value == null) {
        return "nothing";
      }
      if (value instanceof Map) {
        return "a mapping";
      }
      if (value instanceof List) {
        return "a list";
      }
      return "\"" + value + "\"";
    }

    /** Rejects keys nobody read: they are typos or values this loader does not know. */
    void finish() {
      if (read.containsAll(map.keySet())) {
        return;
      }
      Set<String> unknown = new TreeSet<>(map.keySet());
      unknown.removeAll(read);
      if (!unknown.isEmpty()) {
        Set<String> known = new TreeSet<>(read);
        throw error(null, "unknown key(s) " + unknown + "; known here: " + known);
      }
    }

    /** The {@code sources} section: every value must be a URL. */
    void finishAsSources() {
      for (String name : keys()) {
        Object value = map.get(name);
        checkUrl(name, value instanceof String s ? s : describe(value));
      }
    }

    private Optional<Object> raw(String name) {
      read.add(name);
      return Optional.ofNullable(map.get(name));
    }

    Optional<String> optText(String name) {
      // An empty value (`key:`) never gets here: the failsafe schema rejects it with its line.
      Optional<Object> value = raw(name);
      if (value.isEmpty()) {
        return Optional.empty();
      }
      if (!(value.get() instanceof String s) || s.isBlank()) {
        throw error(name, "expected text, got " + describe(value.get()));
      }
      return Optional.of(s);
    }

    String text(String name) {
      return optText(name).orElseThrow(() -> error(name, "missing"));
    }

    /** A scalar or a list of scalars; absent means empty. */
    List<String> texts(String name) {
      Optional<Object> value = raw(name);
      if (value.isEmpty()) {
        return List.of();
      }
      List<?> items = value.get() instanceof List<?> l ? l : List.of(value.get());
      List<String> texts = new ArrayList<>();
      for (Object item : items) {
        if (!(item instanceof String s) || s.isBlank()) {
          throw error(name, "expected text, got " + describe(item));
        }
        texts.add(s);
      }
      if (texts.isEmpty()) {
        throw error(name, "is an empty list; leave the key out instead");
      }
      return texts;
    }

    /** The row's {@code source}: one URL or a list of them, required. */
    List<String> sources() {
      if (!has("source")) {
        throw error("source", "missing: every row needs the URL its values come from");
      }
      List<String> urls = texts("source");
      for (String url : urls) {
        checkUrl("source", url);
      }
      return urls;
    }

    private void checkUrl(String name, String url) {
      if (!url.startsWith("https://") || hasWhitespace(url)) {
        throw error(name, "expected an https:// URL, got \"" + url + "\"");
      }
    }

    OptionalInt optCount(String name) {
      Optional<String> text = optText(name);
      return text.isEmpty() ? OptionalInt.empty() : OptionalInt.of(parseCount(name, text.get()));
    }

    int count(String name) {
      return parseCount(name, text(name));
    }

    int keyCount() {
      return parseCount(null, key);
    }

    private int parseCount(String name, String text) {
      if (!digits(text, 9)) {
        throw error(name, "expected a whole number, got \"" + text + "\"");
      }
      return Integer.parseInt(text);
    }

    boolean flag(String name) {
      String text = text(name);
      return switch (text) {
        case "true" -> true;
        case "false" -> false;
        default -> throw error(name, "expected true or false, got \"" + text + "\"");
      };
    }

    boolean flag(String name, boolean absent) {
      return has(name) ? flag(name) : absent;
    }

    Optional<Version> optVersion(String name) {
      return optText(name).map(text -> parseVersion(name, text));
    }

    Version version(String name) {
      return parseVersion(name, text(name));
    }

    Version keyVersion() {
      return parseVersion(null, key);
    }

    Version parseVersion(String name, String text) {
      try {
        return Version.parse(text);
      } catch (InvalidInput e) {
        throw error(name, e.getMessage());
      }
    }

    OptionalInt optBranch(String name) {
      Optional<String> text = optText(name);
      return text.isEmpty() ? OptionalInt.empty() : OptionalInt.of(parseBranch(name, text.get()));
    }

    int branch(String name) {
      return parseBranch(name, text(name));
    }

    int keyBranch() {
      return parseBranch(null, key);
    }

    int parseBranch(String name, String text) {
      var m = BRANCH.matcher(text);
      if (!m.matches()) {
        throw error(name, "expected a driver branch like R580, got \"" + text + "\"");
      }
      return Integer.parseInt(m.group(1));
    }

    Optional<YearMonth> optMonth(String name) {
      return optText(name)
          .map(
              text -> {
                try {
                  return YearMonth.parse(text);
                } catch (DateTimeParseException e) {
                  throw error(name, "expected a month like 2026-06, got \"" + text + "\"");
                }
              });
    }

    <E> E choice(String name, Map<String, E> choices) {
      String text = text(name);
      E value = choices.get(text);
      if (value == null) {
        throw error(
            name, "expected one of " + new TreeSet<>(choices.keySet()) + ", got \"" + text + "\"");
      }
      return value;
    }
  }
}
