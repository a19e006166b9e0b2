package dev.gpugen.render;

import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.CompatRow;
import dev.gpugen.compat.CompatTable;
import dev.gpugen.compat.CudaRelease;
import dev.gpugen.compat.GpuModel;
import dev.gpugen.compat.MinorVersionCompat;
import dev.gpugen.compat.Version;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.render.GeneratedOutputFormat.Markup;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.PullSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the Terraform templates need. Spec data reaches Terraform only through {@link #tfvars()},
 * written as terraform.tfvars.json by a JSON library: Terraform reads tfvars values literally, so a
 * spec string can never become HCL source or a template sequence.
 *
 * <p>The {@code .tf} files are static structure plus one block per pool, labelled with the pool's
 * variable prefix ({@link #pools()}); the only other data in them is gpugen's own compatibility
 * table ({@link #compat()}), which the version gate and the EFA interfaces are computed from.
 */
public final class TerraformView {
  private final ClusterPlan plan;
  private final ClusterSpec spec;
  private final List<String> bundleFiles;

  TerraformView(ClusterPlan plan) {
    this(plan, List.of());
  }

  private TerraformView(ClusterPlan plan, List<String> bundleFiles) {
    this.plan = plan;
    this.spec = plan.spec();
    this.bundleFiles = List.copyOf(bundleFiles);
  }

  /** This view, knowing the files of the pull-mode bundle (the renderer lists them). */
  TerraformView withBundleFiles(List<String> files) {
    return new TerraformView(plan, files);
  }

  /**
   * The pull-mode bundle's files, relative to ansible/ and sorted: every file the render writes
   * there and nothing else, which is what Terraform uploads and what the digest in the user data
   * lists.
   */
  public List<String> pullBundleFiles() {
    return bundleFiles;
  }

  /**
   * A pool as the Terraform templates name it.
   *
   * @param name the pool name as written in the spec (the gpugen:pool tag)
   * @param var the prefix of its variables and the label of its resources: the name with '-'
   *     replaced by '_', e.g. {@code gpu_a} for {@code gpu-a}
   */
  public record Pool(String name, String var) {}

  /** One row of a rendered lookup table: a key, the padding that aligns its '=', a value. */
  public record Row<T>(String key, Markup pad, T value) {}

  /**
   * A version as text and as the number the version gate compares: parts weighted by powers of
   * 1000, see {@link TerraformView#versionKey(Version)}.
   */
  public record VersionFloor(String version, long key) {}

  /**
   * An EC2 instance type as the Terraform templates see it.
   *
   * @param gpu the GPU model name, e.g. H100
   * @param efaInterfaces the EFA interfaces to request (one per network card that supports EFA), 0
   *     without EFA
   * @param efaCard0 whether network card 0 supports EFA (false: card 0 carries the primary ENA
   *     interface only, the EFA interfaces are on cards 1 and up)
   */
  public record InstanceFacts(String gpu, int efaInterfaces, boolean efaCard0) {}

  /**
   * gpugen's compatibility table, as the lookup tables the Terraform version gate reads. Only what
   * Terraform for AWS can use: instance types, the GPUs on them, and the driver floors of CUDA
   * releases.
   *
   * @param instanceTypes EC2 instance type to its GPU and EFA interfaces, sorted by type
   * @param gpuMinDrivers GPU model to the oldest driver that supports it (GPUs on those types)
   * @param cudaMinDrivers CUDA major.minor to the driver its GA release needs (CUDA release notes,
   *     Table 3); below it the toolkit runs only with a limited feature set
   * @param cudaMvcFloors CUDA major to the minor-version-compatibility floor; below it the toolkit
   *     cannot run at all
   */
  public record Compat(
      List<Row<InstanceFacts>> instanceTypes,
      List<Row<VersionFloor>> gpuMinDrivers,
      List<Row<VersionFloor>> cudaMinDrivers,
      List<Row<VersionFloor>> cudaMvcFloors) {}

  /** Whether this spec renders Terraform for AWS. */
  public boolean aws() {
    return plan.aws();
  }

  /** Whether this spec renders Terraform for GCP (GKE node pools). */
  public boolean gcp() {
    return plan.gke();
  }

  /** Whether this spec renders any Terraform: static hosts exist already. */
  public boolean any() {
    return aws() || gcp();
  }

  /** Whether Terraform creates an EKS control plane the nodes join at boot (distribution eks). */
  public boolean eks() {
    return aws() && spec.kubernetes().map(ClusterSpec.Kubernetes::eks).orElse(false);
  }

  /** Whether the nodes configure themselves at boot (ansible.mode pull, on AWS). */
  public boolean pull() {
    return plan.pullMode();
  }

  /** Whether pulling nodes fetch the bundle from the checkpoint bucket (else from Git). */
  public boolean pullFromS3() {
    return pull() && spec.ansible().pull().source() == PullSource.S3;
  }

  /**
   * What EKS's CoreDNS tolerates besides every pool's registered taints: what the plan gives the
   * cluster's controllers (play 05's verdict taint, which every GPU node may carry at once, and the
   * GPU pools' taints where they are the only nodes).
   */
  public List<dev.gpugen.plan.Toleration> eksCoreDnsTolerations() {
    return plan.controllerTolerations();
  }

  /** Whether pulling nodes write their validation reports to the checkpoint bucket. */
  public boolean pullReportsToS3() {
    return pull() && spec.storage().checkpointBucket().isPresent();
  }

  /** The cluster's folder in the checkpoint bucket: gpugen/NAME or gpugen/NAME-ENV. */
  private String pullRoot() {
    return "gpugen/" + plan.qualifiedName();
  }

  /**
   * Where Terraform uploads the rendered ansible/ folder: versioned by the spec's fingerprint, so
   * nodes booted from one version of the spec never see the files of another.
   */
  public String pullBundlePrefix() {
    return pullRoot() + "/bundles/" + plan.fingerprint();
  }

  /** Where nodes write {@code <role-id>:<instance-id>.json}. */
  public String pullReportsPrefix() {
    return pullRoot() + "/reports";
  }

  /**
   * What a pool's user-data script bakes in. Every value reaches the script through {@code sh()}.
   *
   * @param inventory the bundle's local inventory for the pool (ansible/pull-inventory-POOL.yml)
   * @param bucket the checkpoint bucket, empty when there is none (git source without reports)
   * @param gitPath the rendered ansible/ folder inside the repository
   * @param ansibleCore the pip requirement installed when the image has no ansible-playbook
   * @param skipTags what a node does not run on itself: the Kubernetes API calls and the chart
   *     (cluster-side, once per cluster) and Ansible's reboot module (the script reboots instead)
   * @param lustre whether the node mounts the FSx for Lustre file system, whose DNS and mount names
   *     it reads from its own tags in instance metadata
   */
  public record PullScript(
      String cluster,
      String pool,
      String inventory,
      String source,
      String bucket,
      String bundlePrefix,
      String reportsPrefix,
      String gitUrl,
      String gitRef,
      String gitPath,
      String specSha256,
      String ansibleCore,
      String skipTags,
      boolean lustre) {}

  /** The user-data script's values for one pool (by its name in the spec). */
  public PullScript pullScript(String poolName) {
    ClusterSpec.Pull p = spec.ansible().pull();
    return new PullScript(
        plan.qualifiedName(),
        poolName,
        "pull-inventory-" + plan.pool(poolName).tfPrefix() + ".yml",
        p.source().spelling(),
        spec.storage().checkpointBucket().orElse(""),
        pullBundlePrefix(),
        pullReportsPrefix(),
        p.gitUrl().orElse(""),
        p.gitRef().orElse(""),
        p.gitPath().orElse(spec.outputFolder() + "/ansible"),
        plan.fingerprint(),
        ANSIBLE_CORE,
        "kubernetes,helm,reboot",
        plan.lustre().isPresent());
  }

  /**
   * ansible-core for nodes without Ansible: 2.16 runs on the Python of Ubuntu 22.04 (3.10) and
   * 24.04 (3.12), which 2.14 (the tests' controller) does not.
   */
  static final String ANSIBLE_CORE = "ansible-core==2.16.14";

  /** The pools in spec order. */
  public List<Pool> pools() {
    List<Pool> out = new ArrayList<>();
    plan.pools().forEach(p -> out.add(new Pool(p.name(), p.tfPrefix())));
    return out;
  }

  /** The variable names per pool, e.g. h100_count: Terraform identifiers allow no '-'. */
  public List<String> poolPrefixes() {
    return pools().stream().map(Pool::var).toList();
  }

  /** Whether the GPU Operator installs the driver on GKE (else GKE installs its own). */
  public boolean gkeOperatorDriver() {
    return plan.gkeOperatorDriver();
  }

  /** The compatibility table as Terraform lookup tables; see {@link Compat}. */
  public Compat compat() {
    return compat(plan.compat());
  }

  static Compat compat(CompatTable table) {
    List<AwsInstanceType> types =
        table.awsInstances().stream().sorted(Comparator.comparing(AwsInstanceType::name)).toList();

    TreeMap<String, InstanceFacts> instances = new TreeMap<>();
    TreeSet<String> gpusOnAws = new TreeSet<>();
    for (AwsInstanceType t : types) {
      instances.put(t.name(), new InstanceFacts(t.gpu(), t.efaInterfaces(), t.efaOnCard0()));
      gpusOnAws.add(t.gpu());
    }

    TreeMap<String, VersionFloor> gpuFloors = new TreeMap<>();
    for (String name : gpusOnAws) {
      Optional<Version> min = table.gpu(name).flatMap(GpuModel::minDriver);
      min.ifPresent(v -> gpuFloors.put(name, floor(v)));
    }

    // Keyed by major.minor, the form the spec writes; the GA row of each release (12.8, not
    // 12.8u1) is the one a plain "12.8" means. Ordered as versions, not as text.
    TreeMap<Version, VersionFloor> cuda = new TreeMap<>();
    for (CudaRelease r : table.cudaReleases()) {
      if (r.version().parts().size() == 2) {
        cuda.put(r.version(), floor(r.minDriver()));
      }
    }
    List<Row<VersionFloor>> cudaRows = new ArrayList<>();
    List<String> cudaKeys = cuda.keySet().stream().map(Version::toString).toList();
    int cudaWidth = width(cudaKeys);
    cuda.forEach((v, f) -> cudaRows.add(row(v.toString(), cudaWidth, f)));

    TreeMap<Integer, VersionFloor> mvc = new TreeMap<>();
    for (CompatRow r : table.rows()) {
      if (r instanceof MinorVersionCompat m) {
        mvc.put(m.cudaMajor(), floor(m.minDriver()));
      }
    }
    List<Row<VersionFloor>> mvcRows = new ArrayList<>();
    int mvcWidth = width(mvc.keySet().stream().map(String::valueOf).toList());
    mvc.forEach((major, f) -> mvcRows.add(row(String.valueOf(major), mvcWidth, f)));

    return new Compat(rows(instances), rows(gpuFloors), cudaRows, mvcRows);
  }

  /**
   * A driver version as one number that orders like the version: each part weighted by a power of
   * 1000, up to three parts ({@code 580.95.05} → 580095005, {@code 570.26} → 570026000). The
   * Terraform version gate computes the same number from the variables, whose validation keeps them
   * to three parts below 1000.
   *
   * @throws IllegalArgumentException for versions that do not fit (more parts, or a part ≥ 1000)
   */
  public static long versionKey(Version v) {
    List<Integer> parts = v.parts();
    if (parts.size() > 3) {
      throw new IllegalArgumentException(v + ": more than three parts");
    }
    long key = 0;
    for (int i = 0; i < 3; i++) {
      int part = i < parts.size() ? parts.get(i) : 0;
      if (part >= 1000) {
        throw new IllegalArgumentException(v + ": part " + part + " is 1000 or more");
      }
      key = key * 1000 + part;
    }
    return key;
  }

  private static VersionFloor floor(Version v) {
    return new VersionFloor(v.toString(), versionKey(v));
  }

  private static <T> List<Row<T>> rows(TreeMap<String, T> map) {
    int w = width(map.keySet().stream().toList());
    List<Row<T>> out = new ArrayList<>();
    map.forEach((k, v) -> out.add(row(k, w, v)));
    return out;
  }

  /** Quoted keys are as wide as their text plus the two quotes; the escaper adds no more here. */
  private static int width(List<String> keys) {
    return keys.stream().map(Escape::hcl).mapToInt(String::length).max().orElse(0);
  }

  private static <T> Row<T> row(String key, int width, T value) {
    return new Row<>(
        key, GeneratedOutputFormat.markup(" ".repeat(width - Escape.hcl(key).length())), value);
  }

  /**
   * The S3 state backend of backend.tf. Backend blocks take no variables, so these values are
   * written into HCL through {@code hcl()}; the grammar already limits them to safe characters.
   */
  public ClusterSpec.S3Backend s3Backend() {
    return spec.terraform().s3Backend().orElseThrow();
  }

  /**
   * The variables of variables.tf (gke-variables.tf on GKE), in sections; see {@link
   * TerraformVariables}.
   */
  public List<TfVar.Section> variables() {
    return gcp() ? TerraformVariables.gke(plan) : TerraformVariables.aws(plan);
  }

  /** The variables pull.tf declares; none without pull mode. */
  public List<TfVar> pullVariables() {
    return pull() ? TerraformVariables.pull(plan, this) : List.of();
  }

  /**
   * The variables eks.tf declares, in sections (the cluster's, then one per pool); none without.
   */
  public List<TfVar.Section> eksVariables() {
    return eks() ? TerraformVariables.eks(plan) : List.of();
  }

  /**
   * Every value of terraform.tfvars.json, sorted by name: the value of each variable gpugen sets,
   * null where the spec leaves it unset.
   */
  public Map<String, Object> tfvars() {
    Map<String, Object> v = new TreeMap<>();
    List<TfVar> all = new ArrayList<>(pullVariables());
    variables().forEach(s -> all.addAll(s.variables()));
    eksVariables().forEach(s -> all.addAll(s.variables()));
    TreeSet<String> names = new TreeSet<>();
    for (TfVar t : all) {
      if (!names.add(t.name())) {
        throw new IllegalStateException("Terraform variable " + t.name() + " is declared twice");
      }
      t.value().ifPresent(x -> v.put(t.name(), x.json()));
    }
    return v;
  }
}
