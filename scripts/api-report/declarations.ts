/**
 * @module scripts/api-report/declarations — one exported declaration as a reader of the published `.d.ts`
 * sees it: bodies, initializers, private members and comments left out, the types as the source declares
 * them, and a type the source leaves to inference written out by the checker (as declaration emit does).
 */
import ts from 'typescript';

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** Inferred types spelled the way declaration emit spells them, never cut short. */
const BUILDER_FLAGS =
  ts.NodeBuilderFlags.NoTruncation |
  ts.NodeBuilderFlags.UseAliasDefinedOutsideCurrentScope |
  ts.NodeBuilderFlags.MultilineObjectLiterals |
  ts.NodeBuilderFlags.IgnoreErrors;

/** Modifiers that say nothing about the surface (or only where it is declared). */
const DROPPED = new Set([
  ts.SyntaxKind.ExportKeyword,
  ts.SyntaxKind.DefaultKeyword,
  ts.SyntaxKind.DeclareKeyword,
  ts.SyntaxKind.AsyncKeyword,
  ts.SyntaxKind.PublicKeyword,
  ts.SyntaxKind.OverrideKeyword,
  ts.SyntaxKind.AccessorKeyword,
]);

/** An inferred type longer than this many lines is collapsed to its property names. */
const MAX_INFERRED_LINES = 80;

export class DeclarationPrinter {
  readonly #checker: ts.TypeChecker;

  constructor(checker: ts.TypeChecker) {
    this.#checker = checker;
  }

  /** The declaration as printed text, or undefined for a node that declares nothing of the surface. */
  print(decl: ts.Declaration): string | undefined {
    const node = this.#strip(decl);
    if (!node) return undefined;
    tuplesOnOneLine(node);
    return printer.printNode(ts.EmitHint.Unspecified, node, decl.getSourceFile());
  }

  #strip(decl: ts.Declaration): ts.Node | undefined {
    const f = ts.factory;
    if (ts.isFunctionDeclaration(decl)) {
      if (decl.body && this.#hasOverloads(decl)) return undefined;
      return f.createFunctionDeclaration(
        modifiers(decl.modifiers),
        undefined,
        decl.name,
        decl.typeParameters,
        this.#parameters(decl.parameters),
        decl.type ?? this.#returnType(decl),
        undefined,
      );
    }
    if (ts.isVariableDeclaration(decl)) {
      const list = decl.parent as ts.VariableDeclarationList;
      const type = decl.type ?? this.#collapse(this.#inferred(this.#checker.getTypeAtLocation(decl.name), decl));
      return f.createVariableStatement(
        undefined,
        f.createVariableDeclarationList([f.createVariableDeclaration(decl.name, undefined, type)], list.flags),
      );
    }
    if (ts.isClassDeclaration(decl)) {
      const members = decl.members.flatMap((m) => this.#member(m) ?? []);
      return f.createClassDeclaration(modifiers(decl.modifiers), decl.name, decl.typeParameters, decl.heritageClauses, members);
    }
    if (ts.isInterfaceDeclaration(decl)) {
      return f.createInterfaceDeclaration(modifiers(decl.modifiers), decl.name, decl.typeParameters, decl.heritageClauses, decl.members);
    }
    if (ts.isTypeAliasDeclaration(decl)) return f.createTypeAliasDeclaration(modifiers(decl.modifiers), decl.name, decl.typeParameters, decl.type);
    if (ts.isEnumDeclaration(decl)) return f.createEnumDeclaration(modifiers(decl.modifiers), decl.name, decl.members);
    if (ts.isModuleDeclaration(decl)) return f.createModuleDeclaration(modifiers(decl.modifiers), decl.name, decl.body, decl.flags);
    return undefined;
  }

  /** A class member as declared, or undefined for a private one or one that is not a declaration. */
  #member(m: ts.ClassElement): ts.ClassElement | undefined {
    const f = ts.factory;
    if (m.name && ts.isPrivateIdentifier(m.name)) return undefined;
    if (ts.getCombinedModifierFlags(m) & ts.ModifierFlags.Private && !ts.isConstructorDeclaration(m)) return undefined;
    if (ts.isPropertyDeclaration(m)) {
      const type = m.type ?? this.#inferred(this.#checker.getTypeAtLocation(m), m);
      return f.createPropertyDeclaration(modifiers(m.modifiers), m.name, m.questionToken, type, undefined);
    }
    if (ts.isMethodDeclaration(m)) {
      if (m.body && this.#hasOverloads(m)) return undefined;
      const params = this.#parameters(m.parameters);
      return f.createMethodDeclaration(
        modifiers(m.modifiers),
        undefined,
        m.name,
        m.questionToken,
        m.typeParameters,
        params,
        m.type ?? this.#returnType(m),
        undefined,
      );
    }
    if (ts.isConstructorDeclaration(m)) {
      if (m.body && this.#hasOverloads(m)) return undefined;
      // A private constructor stays (it says the class is not constructed by users), without its parameters.
      if (ts.getCombinedModifierFlags(m) & ts.ModifierFlags.Private) return f.createConstructorDeclaration(modifiers(m.modifiers), [], undefined);
      return f.createConstructorDeclaration(modifiers(m.modifiers), this.#parameters(m.parameters), undefined);
    }
    if (ts.isGetAccessorDeclaration(m)) {
      return f.createGetAccessorDeclaration(modifiers(m.modifiers), m.name, [], m.type ?? this.#returnType(m), undefined);
    }
    if (ts.isSetAccessorDeclaration(m))
      return f.createSetAccessorDeclaration(modifiers(m.modifiers), m.name, this.#parameters(m.parameters), undefined);
    if (ts.isIndexSignatureDeclaration(m)) return m;
    return undefined;
  }

  /** Parameters without defaults (a default makes one optional) and with their types written out. */
  #parameters(params: ts.NodeArray<ts.ParameterDeclaration>): ts.ParameterDeclaration[] {
    return params.map((p) => {
      const optional = p.questionToken ?? (p.initializer && !p.dotDotDotToken ? ts.factory.createToken(ts.SyntaxKind.QuestionToken) : undefined);
      const type = p.type ?? this.#inferred(this.#checker.getTypeAtLocation(p), p);
      // A parameter property keeps `readonly`/`protected` (it is a member too); a private one is a parameter only.
      const isPrivate = p.modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword);
      const kept = isPrivate ? undefined : modifiers(p.modifiers);
      return ts.factory.createParameterDeclaration(kept, p.dotDotDotToken, bindingName(p.name), optional, type, undefined);
    });
  }

  #returnType(decl: ts.SignatureDeclaration): ts.TypeNode | undefined {
    const signature = this.#checker.getSignatureFromDeclaration(decl);
    return signature && this.#inferred(this.#checker.getReturnTypeOfSignature(signature), decl);
  }

  #inferred(type: ts.Type, at: ts.Node): ts.TypeNode | undefined {
    return this.#checker.typeToTypeNode(type, at, BUILDER_FLAGS);
  }

  /** A long inferred object type (a table written as a literal) as its property names, each value elided. */
  #collapse(node: ts.TypeNode | undefined): ts.TypeNode | undefined {
    if (!node || !ts.isTypeLiteralNode(node)) return node;
    const text = printer.printNode(ts.EmitHint.Unspecified, node, ts.createSourceFile('x.ts', '', ts.ScriptTarget.Latest));
    if (text.split('\n').length <= MAX_INFERRED_LINES) return node;
    const elided = ts.factory.createTypeReferenceNode('…');
    return ts.factory.createTypeLiteralNode(
      node.members.map((m) =>
        ts.isPropertySignature(m) && !(m.type && isSimple(m.type))
          ? ts.factory.updatePropertySignature(m, m.modifiers, m.name, m.questionToken, elided)
          : m,
      ),
    );
  }

  /** Whether the implementation `decl` has overload signatures (then it is not part of the surface). */
  #hasOverloads(decl: ts.FunctionDeclaration | ts.MethodDeclaration | ts.ConstructorDeclaration): boolean {
    const all: readonly ts.Declaration[] = ts.isConstructorDeclaration(decl)
      ? decl.parent.members.filter(ts.isConstructorDeclaration)
      : (this.#checker.getSymbolAtLocation(decl.name!)?.declarations ?? []);
    return all.some((d) => d !== decl && (ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d) || ts.isConstructorDeclaration(d)) && !d.body);
  }
}

/** Tuples on one line (`[Transport, Transport]`), as they are written; object types keep one member a line. */
function tuplesOnOneLine(node: ts.Node): void {
  if (ts.isTupleTypeNode(node)) ts.setEmitFlags(node, ts.EmitFlags.SingleLine);
  ts.forEachChild(node, tuplesOnOneLine);
}

function modifiers(list: ts.NodeArray<ts.ModifierLike> | undefined): ts.Modifier[] | undefined {
  const kept = list?.filter((m): m is ts.Modifier => ts.isModifier(m) && !DROPPED.has(m.kind));
  return kept?.length ? kept : undefined;
}

/** A destructured parameter's pattern without the defaults of its elements. */
function bindingName(name: ts.BindingName): ts.BindingName {
  if (ts.isIdentifier(name)) return name;
  const f = ts.factory;
  if (ts.isObjectBindingPattern(name)) {
    return f.createObjectBindingPattern(
      name.elements.map((e) => f.createBindingElement(e.dotDotDotToken, e.propertyName, bindingName(e.name), undefined)),
    );
  }
  return f.createArrayBindingPattern(
    name.elements.map((e) =>
      ts.isOmittedExpression(e) ? e : f.createBindingElement(e.dotDotDotToken, e.propertyName, bindingName(e.name), undefined),
    ),
  );
}

const KEYWORD_TYPES = new Set([
  ts.SyntaxKind.AnyKeyword,
  ts.SyntaxKind.UnknownKeyword,
  ts.SyntaxKind.NeverKeyword,
  ts.SyntaxKind.VoidKeyword,
  ts.SyntaxKind.UndefinedKeyword,
  ts.SyntaxKind.StringKeyword,
  ts.SyntaxKind.NumberKeyword,
  ts.SyntaxKind.BooleanKeyword,
  ts.SyntaxKind.BigIntKeyword,
  ts.SyntaxKind.SymbolKeyword,
  ts.SyntaxKind.ObjectKeyword,
]);

/** A literal or keyword type, short enough to keep when a table is collapsed. */
function isSimple(node: ts.TypeNode): boolean {
  return ts.isLiteralTypeNode(node) || KEYWORD_TYPES.has(node.kind);
}
