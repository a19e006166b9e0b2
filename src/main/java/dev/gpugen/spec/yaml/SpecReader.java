package dev.gpugen.spec.yaml;

import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Diagnostics;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SourceMap;
import dev.gpugen.spec.SpecPath;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * Reads a spec: safe YAML, then the v1 grammar, then the {@code --env} overlay, then the model.
 * Without {@code --env}, every declared environment is checked too, so a broken dev overlay is
 * caught before anyone renders dev.
 */
public final class SpecReader {

  /**
   * What reading produced: the model when there were no errors, and every finding. Without {@code
   * --env}, {@code environments} holds each overlay resolved, so later stages (the linter) can
   * check every environment too.
   */
  public record Result(
      Optional<ClusterSpec> spec,
      SourceMap sources,
      List<Diagnostic> diagnostics,
      SortedMap<String, Resolved> environments) {
    public Result {
      diagnostics = List.copyOf(diagnostics);
      environments = Collections.unmodifiableSortedMap(new TreeMap<>(environments));
    }

    Result(Optional<ClusterSpec> spec, SourceMap sources, List<Diagnostic> diagnostics) {
      this(spec, sources, diagnostics, new TreeMap<>());
    }
  }

  /** One environment's resolved model with its own positions (overlay values point there). */
  public record Resolved(ClusterSpec spec, SourceMap sources) {}

  private final Predicate<String> efaCapable;

  /**
   * @param efaCapable whether an instance type has EFA, to default {@code network.fabric}
   */
  public SpecReader(Predicate<String> efaCapable) {
    this.efaCapable = efaCapable;
  }

  public Result read(String label, byte[] bytes, Optional<String> env) {
    SourceMap sources = new SourceMap(label);
    Diagnostics diags = new Diagnostics(sources);
    SafeYaml.Result yaml = SafeYaml.load(label, bytes);
    if (yaml.problem().isPresent()) {
      SafeYaml.Problem p = yaml.problem().get();
      diags.add(Severity.ERROR, p.ruleId(), SpecPath.ROOT, p.position(), p.message(), p.hint());
      return new Result(Optional.empty(), sources, diags.sorted());
    }
    Node root = yaml.root().orElseThrow();
    Binder binder = new Binder(diags);
    binder.index(root, SpecPath.ROOT);
    if (!(root instanceof MappingNode rootMap)) {
      diags.error(
          "spec-type",
          SpecPath.ROOT,
          "the spec must be a mapping (apiVersion: gpugen/v1, kind: GpuCluster, ...)",
          "start from examples/aws-h100/cluster.yaml");
      return new Result(Optional.empty(), sources, diags.sorted());
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> base =
        (Map<String, Object>) binder.bind(root, SpecShape.root(), SpecPath.ROOT);
    checkKubernetes(base, diags);
    if (diags.hasErrors() || base == null) {
      return new Result(Optional.empty(), sources, diags.sorted());
    }
    List<String> envNames = new ArrayList<>(Scope.asMap(base.get("environments")).keySet());
    if (env.isPresent()) {
      String name = env.get();
      if (!envNames.contains(name)) {
        String s = Suggest.closest(name, envNames);
        diags.errorAtKey(
            "spec-env-unknown",
            SpecPath.ROOT.key("environments"),
            "--env "
                + name
                + " is not declared under environments"
                + (s == null ? "" : "; did you mean " + s + "?"),
            envNames.isEmpty()
                ? "add environments: {" + name + ": {...}} to the spec"
                : "declared: " + String.join(", ", envNames));
        return new Result(Optional.empty(), sources, diags.sorted());
      }
      // A fresh source map: the overlay's values must be found at the overlay's lines, and the
      // base's positions (indexed above, first one wins) would shadow them.
      return resolve(rootMap, name, new SourceMap(label), diags);
    }
    // No --env: the base is the result, but every overlay must also resolve cleanly.
    SortedMap<String, Resolved> resolved = new TreeMap<>();
    for (String name : envNames) {
      SourceMap envSources = new SourceMap(label);
      Result r = resolve(rootMap, name, envSources, new Diagnostics(envSources));
      r.diagnostics().forEach(d -> diags.add(inEnvironment(d, name)));
      r.spec().ifPresent(s -> resolved.put(name, new Resolved(s, envSources)));
    }
    if (diags.hasErrors()) {
      return new Result(Optional.empty(), sources, diags.sorted());
    }
    ClusterSpec spec = bindSpec(base, Optional.empty());
    return new Result(Optional.of(spec), sources, diags.sorted(), resolved);
  }

  private ClusterSpec bindSpec(Map<String, Object> bound, Optional<String> env) {
    ClusterSpec spec =
        (ClusterSpec)
            RecordBinder.build(SpecShape.root(), bound, new Scope.Context(bound, env, efaCapable));
    return spec;
  }

  /** Says which environment a finding belongs to, so users know which overlay to fix. */
  public static Diagnostic inEnvironment(Diagnostic d, String env) {
    return new Diagnostic(
        d.file(),
        d.position(),
        d.severity(),
        d.ruleId(),
        d.path(),
        d.message() + " (environment " + env + ")",
        d.hint());
  }

  private Result resolve(MappingNode root, String env, SourceMap sources, Diagnostics diags) {
    Diagnostics local = new Diagnostics(sources);
    Node merged = applyOverlay(root, env, local);
    Binder binder = new Binder(local);
    binder.index(merged, SpecPath.ROOT);
    @SuppressWarnings("unchecked")
    Map<String, Object> bound =
        (Map<String, Object>) binder.bind(merged, SpecShape.root(), SpecPath.ROOT);
    checkKubernetes(bound, local);
    local.sorted().forEach(diags::add);
    if (diags.hasErrors() || bound == null) {
      return new Result(Optional.empty(), sources, diags.sorted());
    }
    return new Result(Optional.of(bindSpec(bound, Optional.of(env))), sources, diags.sorted());
  }

  /**
   * kubernetes: names a cluster with distribution and version, except a gcp spec's that holds only
   * systemPool (GKE's cluster is cloud.gke's); the grammar cannot say "required unless", so the
   * reader does, as the binder would.
   */
  private static void checkKubernetes(Map<String, Object> bound, Diagnostics diags) {
    SpecPath path = SpecPath.ROOT.key("kubernetes");
    SourceMap written = diags.sources();
    if (bound == null || !written.isWritten(path)) {
      return;
    }
    boolean gcp = Provider.GCP.spelling().equals(Scope.asMap(bound.get("cloud")).get("provider"));
    boolean distribution = written.isWritten(path.key("distribution"));
    boolean onlySystemPool =
        SpecShape.KUBERNETES.fields().stream()
            .filter(f -> written.isWritten(path.key(f.key())))
            .allMatch(f -> f.key().equals("systemPool"));
    if (!distribution && !(gcp && onlySystemPool)) {
      diags.errorAtKey(
          "spec-missing-key",
          path,
          "kubernetes needs distribution (who runs the control plane); only a gcp spec's"
              + " kubernetes: may hold systemPool alone, since cloud.gke names GKE's cluster",
          gcp
              ? "on gcp, write only systemPool under kubernetes:, or add distribution: existing"
              : "add distribution: eks, kubeadm or existing");
    } else if (distribution && !written.isWritten(path.key("version"))) {
      diags.errorAtKey(
          "spec-missing-key",
          path,
          "kubernetes needs version (the Kubernetes minor) with distribution",
          "add version: \"1.33\" (quoted)");
    }
  }

  /** The base tree with environments.ENV merged over it; overlay nodes keep their own marks. */
  private static Node applyOverlay(MappingNode root, String env, Diagnostics diags) {
    MappingNode overlay = null;
    for (NodeTuple t : root.getValue()) {
      if (keyOf(t).equals("environments") && t.getValueNode() instanceof MappingNode envs) {
        for (NodeTuple e : envs.getValue()) {
          if (keyOf(e).equals(env) && e.getValueNode() instanceof MappingNode o) {
            overlay = o;
          }
        }
      }
    }
    if (overlay == null) {
      return root;
    }
    Map<String, NodeTuple> out = tuples(root);
    SpecPath overlayPath = SpecPath.ROOT.key("environments").key(env);
    for (NodeTuple t : overlay.getValue()) {
      String key = keyOf(t);
      NodeTuple existing = out.get(key);
      if (key.equals("pools") && existing != null) {
        out.put(
            key,
            new NodeTuple(
                existing.getKeyNode(),
                mergePools(
                    existing.getValueNode(), t.getValueNode(), overlayPath.key("pools"), diags)));
      } else if (existing != null) {
        out.put(
            key,
            new NodeTuple(existing.getKeyNode(), merge(existing.getValueNode(), t.getValueNode())));
      } else {
        out.put(key, t);
      }
    }
    return new MappingNode(
        Tag.MAP,
        true,
        new ArrayList<>(out.values()),
        root.getFlowStyle(),
        root.getStartMark(),
        root.getEndMark());
  }

  private static Node mergePools(Node base, Node overlay, SpecPath path, Diagnostics diags) {
    if (!(base instanceof SequenceNode seq) || !(overlay instanceof MappingNode byName)) {
      return base;
    }
    List<Node> pools = new ArrayList<>(seq.getValue());
    for (NodeTuple t : byName.getValue()) {
      String name = keyOf(t);
      int found = -1;
      for (int i = 0; i < pools.size(); i++) {
        if (pools.get(i) instanceof MappingNode p && name.equals(scalar(p, "name"))) {
          found = i;
        }
      }
      if (found < 0) {
        List<String> names = new ArrayList<>();
        pools.forEach(p -> names.add(p instanceof MappingNode m ? scalar(m, "name") : ""));
        String s = Suggest.closest(name, names);
        diags.add(
            Severity.ERROR,
            "spec-env-unknown-pool",
            path.key(name),
            SafeYaml.toPosition(t.getKeyNode().getStartMark()),
            path.key(name)
                + " names no pool of the spec"
                + (s == null ? "" : "; did you mean " + s + "?"),
            "pools: " + String.join(", ", names));
        continue;
      }
      pools.set(found, merge(pools.get(found), t.getValueNode()));
    }
    return new SequenceNode(
        Tag.SEQ, true, pools, seq.getFlowStyle(), seq.getStartMark(), seq.getEndMark());
  }

  /** Mappings merge key by key (like Helm values); anything else is replaced by the overlay. */
  private static Node merge(Node base, Node overlay) {
    if (base instanceof MappingNode b && overlay instanceof MappingNode o) {
      Map<String, NodeTuple> out = tuples(b);
      for (NodeTuple t : o.getValue()) {
        NodeTuple existing = out.get(keyOf(t));
        out.put(
            keyOf(t),
            existing == null
                ? t
                : new NodeTuple(
                    existing.getKeyNode(), merge(existing.getValueNode(), t.getValueNode())));
      }
      return new MappingNode(
          Tag.MAP,
          true,
          new ArrayList<>(out.values()),
          b.getFlowStyle(),
          b.getStartMark(),
          b.getEndMark());
    }
    return overlay;
  }

  private static Map<String, NodeTuple> tuples(MappingNode m) {
    Map<String, NodeTuple> out = new LinkedHashMap<>();
    for (NodeTuple t : m.getValue()) {
      out.put(keyOf(t), t);
    }
    return out;
  }

  private static String keyOf(NodeTuple t) {
    return ((ScalarNode) t.getKeyNode()).getValue();
  }

  private static String scalar(MappingNode m, String key) {
    for (NodeTuple t : m.getValue()) {
      if (keyOf(t).equals(key) && t.getValueNode() instanceof ScalarNode s) {
        return s.getValue();
      }
    }
    return "";
  }
}
