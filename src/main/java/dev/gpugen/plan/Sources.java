package dev.gpugen.plan;

import dev.gpugen.spec.ClusterSpec;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where the node plays download from: which {@link Source}s the render uses, and the mirror set for
 * each (normalised: no trailing '/'). The one definition the linter, the Ansible view and the docs
 * read.
 *
 * @param used the sources the rendered plays reach, given the spec
 * @param mirrors the spec's mirrors, by source
 */
public record Sources(Set<Source> used, Map<Source, String> mirrors) {
  public Sources {
    used =
        Collections.unmodifiableSet(
            used.isEmpty() ? EnumSet.noneOf(Source.class) : EnumSet.copyOf(used));
    mirrors =
        Collections.unmodifiableMap(
            mirrors.isEmpty() ? new EnumMap<>(Source.class) : new EnumMap<>(mirrors));
  }

  static Sources of(
      ClusterSpec spec, boolean nodeTree, boolean kubeadm, boolean lustre, boolean efa) {
    EnumSet<Source> used = EnumSet.noneOf(Source.class);
    if (nodeTree) {
      used.addAll(
          EnumSet.of(Source.UBUNTU, Source.CUDA, Source.NVIDIA_CONTAINER_TOOLKIT, Source.GIT));
      if (kubeadm) {
        used.add(Source.KUBERNETES);
      }
      if (lustre) {
        used.add(Source.LUSTRE);
      }
      if (lustre || efa) {
        used.add(Source.FILES);
      }
    }
    ClusterSpec.Mirrors m = spec.mirrors();
    EnumMap<Source, String> mirrors = new EnumMap<>(Source.class);
    put(mirrors, Source.UBUNTU, m.ubuntu());
    put(mirrors, Source.CUDA, m.cuda());
    put(mirrors, Source.NVIDIA_CONTAINER_TOOLKIT, m.nvidiaContainerToolkit());
    put(mirrors, Source.KUBERNETES, m.kubernetes());
    put(mirrors, Source.LUSTRE, m.lustre());
    put(mirrors, Source.FILES, m.files());
    put(mirrors, Source.GIT, m.git());
    return new Sources(used, mirrors);
  }

  private static void put(Map<Source, String> out, Source s, Optional<String> url) {
    url.ifPresent(u -> out.put(s, u.replaceFirst("/+$", "")));
  }

  /** The mirror of {@code s}, without a trailing '/'; empty: the public upstream. */
  public Optional<String> mirror(Source s) {
    return Optional.ofNullable(mirrors.get(s));
  }

  /** The mirror of {@code s} when the render uses it, else "" (group_vars set nothing then). */
  public String usedMirror(Source s) {
    return used.contains(s) ? mirrors.getOrDefault(s, "") : "";
  }
}
