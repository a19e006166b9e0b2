package dev.gpugen.render;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.NodeSettings;
import dev.gpugen.plan.PoolPlan;
import dev.gpugen.spec.ClusterSpec;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * What the Terraform templates need. The {@code .tf} files are the same for every spec (static
 * files), and spec data reaches Terraform only through {@link #tfvars()}, written as
 * terraform.tfvars.json by a JSON library: Terraform reads tfvars values literally, so a spec
 * string can never become HCL source or a template sequence. The exceptions are declarations only:
 * the {@code moved} blocks of moved.tf (pool names and node counts, which moved blocks cannot loop
 * over) and backend.tf (backend blocks take no variables).
 */
public final class TerraformView {
  private final ClusterPlan plan;
  private final ClusterSpec spec;
  private final List<String> bundleFiles;
  private final SortedMap<String, SortedMap<String, Object>> accepted;

  TerraformView(ClusterPlan plan) {
    this(plan, List.of(), NodeSettings.of(plan));
  }

  private TerraformView(
      ClusterPlan plan,
      List<String> bundleFiles,
      SortedMap<String, SortedMap<String, Object>> accepted) {
    this.plan = plan;
    this.spec = plan.spec();
    this.bundleFiles = List.copyOf(bundleFiles);
    this.accepted = accepted;
  }

  /** This view, knowing the files of the pull-mode bundle (the renderer lists them). */
  TerraformView withBundleFiles(List<String> files) {
    return new TerraformView(plan, files, accepted);
  }

  /**
   * This view with the node settings the render accepts beside those Terraform's state records
   * ({@link NodeSettings#allowed}): the plan's own with --allow-replace, else those an earlier
   * --allow-replace into the folder accepted. Without it, none (a first render).
   */
  TerraformView withAcceptedNodeSettings(SortedMap<String, SortedMap<String, Object>> settings) {
    return new TerraformView(plan, bundleFiles, settings);
  }

  /**
   * accepted_node_settings: what each pool's nodes may be launched with beside the settings the
   * state records.
   */
  public SortedMap<String, SortedMap<String, Object>> acceptedNodeSettings() {
    return accepted;
  }

  /**
   * The pull-mode bundle's files, relative to ansible/ and sorted: every file the render writes
   * there and nothing else, which is what Terraform uploads and what the digest in the user data
   * lists.
   */
  public List<String> pullBundleFiles() {
    return bundleFiles;
  }

  /** Whether Terraform creates an EKS control plane the nodes join at boot (distribution eks). */
  public boolean eks() {
    return plan.aws() && spec.kubernetes().map(ClusterSpec.Kubernetes::eks).orElse(false);
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

  /**
   * One pool's move from the layout before pools were keyed by name (moved.tf, gke-moved.tf).
   *
   * @param name the pool's name: its key in var.pools
   * @param previous the label of its resources then, the name with '-' as '_'
   * @param nodes each node's index then and key now (AWS)
   */
  public record Move(String name, String previous, List<NodeMove> nodes) {}

  /** A node's index in the counted layout and its key now. */
  public record NodeMove(int index, String key) {}

  /**
   * Every pool's move, in spec order. A renamed pool's resources of that layout carry its previous
   * name: they move to its previous module key, which {@link #renames} moves on.
   */
  public List<Move> moves() {
    return plan.pools().stream()
        .map(
            p -> {
              String was = p.pool().renamedFrom().orElse(p.name());
              return new Move(
                  was,
                  was.replace('-', '_'),
                  p.nodes().stream().map(TerraformView::nodeMove).toList());
            })
        .toList();
  }

  /** A pool's rename (pools[].renamedFrom): its module instance moves to the new key. */
  public record Rename(String from, String to) {}

  /** Every renamed pool, in spec order. */
  public List<Rename> renames() {
    return plan.pools().stream()
        .filter(p -> p.pool().renamedFrom().isPresent())
        .map(p -> new Rename(p.pool().renamedFrom().get(), p.name()))
        .toList();
  }

  /**
   * Whether the FSx for Lustre file system and the checkpoint bucket stay at their protected
   * addresses (storage.retain): moved.tf moves them there, or away with retain false.
   */
  public boolean retainData() {
    return spec.storage().retain();
  }

  private static NodeMove nodeMove(PoolPlan.Node n) {
    // Keys are the indices of the counted layout ("0", "1", ...).
    return new NodeMove(Integer.parseInt(n.key()), n.key());
  }

  /**
   * The S3 state backend of backend.tf. Backend blocks take no variables, so these values are
   * written into HCL through {@code hcl()}; the grammar already limits them to safe characters.
   */
  public ClusterSpec.S3Backend s3Backend() {
    return spec.terraform().s3Backend().orElseThrow();
  }

  /**
   * Every value of terraform.tfvars.json, sorted by name: the value of each variable gpugen sets,
   * null where the spec leaves it unset.
   */
  public Map<String, Object> tfvars() {
    return TerraformVariables.values(this);
  }

  /** Every value of the in-cluster root module's terraform.tfvars.json (GKE), sorted by name. */
  public Map<String, Object> inClusterTfvars() {
    return TerraformVariables.inClusterValues(this);
  }

  /** The plan this view reads. */
  ClusterPlan plan() {
    return plan;
  }
}
