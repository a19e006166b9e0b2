package dev.gpugen.spec.yaml;

import dev.gpugen.spec.Keyword;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Builds the model records from the values the {@link Binder} checked, by the grammar: a mapping
 * that names its record ({@link Shape.Obj#into}) is built through the record's canonical
 * constructor, each component from the key of the same name (or the key declared for it with {@link
 * Shape.Field#as}), or from a {@link Shape.Derived} one. Nothing here can fail on user input; a
 * grammar and a record that disagree fail {@link #check} (and with it the tests).
 */
final class RecordBinder {
  private RecordBinder() {}

  /** Where a component's value comes from: a key (under inline mappings) or a derivation. */
  private record Source(List<String> path, Shape.Field field, Shape.Derived derived) {}

  /** The record {@code shape} names, built from its bound {@code values}. */
  static Object build(Shape.Obj shape, Map<String, Object> values, Scope.Context context) {
    Shape.Binding binding = shape.binding();
    if (binding == null) {
      throw new IllegalStateException("a mapping without a record is bound into its parent's");
    }
    Map<String, Object> resolved = resolve(shape, values, context);
    Scope scope = new Scope(resolved, context);
    Map<String, Source> sources = sources(shape);
    RecordComponent[] components = binding.type().getRecordComponents();
    Object[] args = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      RecordComponent c = components[i];
      Source s = sources.get(c.getName());
      if (s == null) {
        throw new IllegalStateException(binding.type().getName() + "." + c.getName() + ": no key");
      }
      args[i] =
          s.derived() != null
              ? s.derived().value().apply(scope)
              : convert(
                  at(resolved, s.path()),
                  c.getGenericType(),
                  s.field().shape(),
                  context,
                  binding.type().getSimpleName() + "." + c.getName());
    }
    try {
      Constructor<?> canonical =
          binding
              .type()
              .getDeclaredConstructor(
                  Arrays.stream(components).map(RecordComponent::getType).toArray(Class[]::new));
      return canonical.newInstance(args);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(binding.type().getName() + ": " + e.getCause(), e);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("model records are public: " + binding.type(), e);
    }
  }

  /** The values with every dependent default applied, key by key in declaration order. */
  private static Map<String, Object> resolve(
      Shape.Obj shape, Map<String, Object> values, Scope.Context context) {
    Map<String, Object> out = new LinkedHashMap<>(values);
    Scope scope = new Scope(out, context);
    for (Shape.Field f : shape.fields()) {
      if (f.resolve() != null) {
        Object v = f.resolve().apply(scope, out.get(f.key()));
        if (v == null) {
          out.remove(f.key());
        } else {
          out.put(f.key(), v);
        }
      }
    }
    return out;
  }

  /** Component name → where its value comes from, through the inline mappings. */
  private static Map<String, Source> sources(Shape.Obj shape) {
    Map<String, Source> out = new LinkedHashMap<>();
    collect(shape, List.of(), out, new ArrayList<>(), "");
    for (Shape.Derived d : shape.binding().derived()) {
      out.put(d.component(), new Source(List.of(), null, d));
    }
    return out;
  }

  private static Object at(Map<String, Object> values, List<String> path) {
    Object v = values;
    for (String key : path) {
      if (!(v instanceof Map<?, ?> m)) {
        return null;
      }
      v = m.get(key);
    }
    return v;
  }

  /** A bound value as the component's type; absent is empty for optionals and collections. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object convert(
      Object v, Type type, Shape shape, Scope.Context context, String where) {
    Class<?> raw = raw(type);
    if (raw == Optional.class) {
      return v == null
          ? Optional.empty()
          : Optional.of(convert(v, argument(type, 0), shape, context, where));
    }
    if (raw == List.class) {
      List<Object> out = new ArrayList<>();
      for (Object item : v == null ? List.of() : (List<Object>) v) {
        out.add(convert(item, argument(type, 0), ((Shape.ListOf) shape).item(), context, where));
      }
      return out;
    }
    if (raw == SortedMap.class || raw == Map.class) {
      SortedMap<String, Object> out = new TreeMap<>();
      Scope.asMap(v)
          .forEach(
              (k, item) ->
                  out.put(
                      k,
                      convert(
                          item, argument(type, 1), ((Shape.MapOf) shape).value(), context, where)));
      return out;
    }
    if (raw.isRecord()) {
      return build((Shape.Obj) shape, Scope.asMap(v), context);
    }
    if (v == null) {
      throw new IllegalStateException(where + ": no value and no default");
    }
    if (raw == String.class) {
      return (String) v;
    }
    if (raw == int.class || raw == Integer.class) {
      return ((Long) v).intValue();
    }
    if (raw == boolean.class || raw == Boolean.class) {
      return (Boolean) v;
    }
    if (raw == double.class || raw == Double.class) {
      return (Double) v;
    }
    if (raw.isEnum() && Keyword.class.isAssignableFrom(raw)) {
      return Keyword.of((Class) raw, (String) v);
    }
    throw new IllegalStateException(where + ": cannot bind a " + type);
  }

  private static Class<?> raw(Type type) {
    return type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
  }

  private static Type argument(Type type, int i) {
    return ((ParameterizedType) type).getActualTypeArguments()[i];
  }

  /**
   * Where the grammar and the records disagree: a component no key or derivation fills, a key bound
   * into no component, a key whose shape cannot become the component's type, an optional component
   * for a key that always has a value or a plain one for a key that may be absent.
   */
  static List<String> check(Shape shape) {
    List<String> problems = new ArrayList<>();
    check(shape, false, problems, new java.util.HashSet<>());
    return problems;
  }

  /**
   * @param partial values here are completed by a dependent default before they are bound (a pool's
   *     software overrides merged over the cluster's), so a key may be absent from the grammar's
   *     point of view and present when bound
   */
  private static void check(
      Shape shape, boolean partial, List<String> problems, java.util.Set<Object> seen) {
    if (!seen.add(List.of(shape, partial))) {
      return;
    }
    if (shape instanceof Shape.ListOf l) {
      check(l.item(), partial, problems, seen);
    } else if (shape instanceof Shape.MapOf m) {
      check(m.value(), partial, problems, seen);
    } else if (shape instanceof Shape.Obj o) {
      for (Shape.Field f : o.fields()) {
        // A key bound into no component here is checked where it is bound (environments are
        // overlays the reader applies; ansible.bastion binds into Connection).
        if (!f.componentName().isEmpty()) {
          check(f.shape(), partial || f.resolve() != null, problems, seen);
        }
      }
      if (o.binding() != null) {
        checkRecord(o, partial, problems);
      }
    }
  }

  private static void checkRecord(Shape.Obj o, boolean partial, List<String> problems) {
    Class<? extends Record> type = o.binding().type();
    String name = type.getSimpleName();
    Map<String, Source> sources = new LinkedHashMap<>();
    collect(o, List.of(), sources, problems, name);
    for (Shape.Derived d : o.binding().derived()) {
      if (sources.put(d.component(), new Source(List.of(), null, d)) != null) {
        problems.add(name + "." + d.component() + " is both a key and derived");
      }
    }
    Map<String, RecordComponent> byName = new LinkedHashMap<>();
    for (RecordComponent c : type.getRecordComponents()) {
      byName.put(c.getName(), c);
      Source s = sources.get(c.getName());
      if (s == null) {
        problems.add(name + "." + c.getName() + ": no key binds into it and it is not derived");
      } else if (s.field() != null) {
        String why = fits(s.field(), c.getGenericType(), partial);
        if (why != null) {
          problems.add(
              name + "." + c.getName() + " (key " + String.join(".", s.path()) + "): " + why);
        }
      }
    }
    for (String component : sources.keySet()) {
      if (!byName.containsKey(component)) {
        problems.add(name + " has no component " + component + " for its key or derivation");
      }
    }
  }

  /** The keys of {@code shape} (through the mappings bound inline) by component name. */
  private static void collect(
      Shape.Obj shape,
      List<String> prefix,
      Map<String, Source> out,
      List<String> problems,
      String name) {
    for (Shape.Field f : shape.fields()) {
      List<String> path = new ArrayList<>(prefix);
      path.add(f.key());
      if (f.shape() instanceof Shape.Obj inner && inner.binding() == null) {
        collect(inner, path, out, problems, name);
      } else if (!f.componentName().isEmpty()
          && out.put(f.componentName(), new Source(List.copyOf(path), f, null)) != null) {
        problems.add(name + "." + f.componentName() + " is bound from two keys");
      }
    }
  }

  /** Why a key's shape cannot fill a component of {@code type}; null when it can. */
  private static String fits(Shape.Field f, Type type, boolean partial) {
    Class<?> raw = raw(type);
    boolean alwaysThere = f.required() || f.defaultValue() != null;
    if (partial) {
      return fitsValue(f.shape(), raw == Optional.class ? argument(type, 0) : type);
    }
    if (raw == Optional.class) {
      if (alwaysThere) {
        return "Optional, but the key is required or has a default";
      }
      return fitsValue(f.shape(), argument(type, 0));
    }
    if (raw == List.class || raw == SortedMap.class || raw == Map.class || raw.isRecord()) {
      return fitsValue(f.shape(), type);
    }
    if (!alwaysThere && f.resolve() == null) {
      return "the key may be absent (no default): the component must be an Optional";
    }
    return fitsValue(f.shape(), type);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static String fitsValue(Shape shape, Type type) {
    Class<?> raw = raw(type);
    boolean ok;
    if (shape instanceof Shape.Str) {
      ok = raw == String.class;
    } else if (shape instanceof Shape.Enum e) {
      // A Keyword enum must have exactly the grammar's words, or a word would not bind.
      ok =
          raw == String.class
              || (raw.isEnum()
                  && Keyword.class.isAssignableFrom(raw)
                  && Keyword.spellings((Class) raw).equals(e.values()));
    } else if (shape instanceof Shape.Int) {
      ok = raw == int.class || raw == Integer.class;
    } else if (shape instanceof Shape.Num) {
      ok = raw == double.class || raw == Double.class;
    } else if (shape instanceof Shape.Bool) {
      ok = raw == boolean.class || raw == Boolean.class;
    } else if (shape instanceof Shape.ListOf l) {
      ok = raw == List.class && fitsValue(l.item(), argument(type, 0)) == null;
    } else if (shape instanceof Shape.MapOf m) {
      ok =
          (raw == SortedMap.class || raw == Map.class)
              && fitsValue(m.value(), argument(type, 1)) == null;
    } else {
      Shape.Obj o = (Shape.Obj) shape;
      ok = o.binding() != null && o.binding().type() == raw;
    }
    return ok ? null : shape.describe() + " cannot be a " + type.getTypeName();
  }
}
