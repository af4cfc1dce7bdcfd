"use client";

import { Component, type ReactNode } from "react";
import { ActionsBlock, InputBlock } from "./interactive-blocks";
import { ContextBlock, DividerBlock, HeaderBlock, ImageBlock, SectionBlock } from "./layout-blocks";
import { RichTextBlock } from "./rich-text";
import { asObject, asString, blockIdOf, type Json } from "./shape";
import { Unsupported } from "./unsupported";

/** One block by its type. */
function Block({ block, index }: { block: Json; index: number }) {
  const blockId = blockIdOf(block, index);
  switch (block.type) {
    case "section":
      return <SectionBlock block={block} blockId={blockId} />;
    case "context":
      return <ContextBlock block={block} />;
    case "divider":
      return <DividerBlock />;
    case "header":
      return <HeaderBlock block={block} />;
    case "image":
      return <ImageBlock block={block} />;
    case "rich_text":
      return <RichTextBlock block={block} />;
    case "actions":
      return <ActionsBlock block={block} blockId={blockId} />;
    case "input":
      return <InputBlock block={block} blockId={blockId} />;
    default:
      return <Unsupported what={`block: ${asString(block.type) ?? "(no type)"}`} />;
  }
}

/** A block whose fields are too far from the platform's to draw is named, and the blocks around it still show. */
class BlockBoundary extends Component<{ type: string; value: unknown; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  // The block as edited since it failed may draw: try it again.
  componentDidUpdate(previous: { value: unknown }) {
    if (this.state.failed && previous.value !== this.props.value) this.setState({ failed: false });
  }
  render() {
    return this.state.failed ? <Unsupported what={`block: ${this.props.type} (its fields could not be read)`} /> : this.props.children;
  }
}

/** A list of blocks, as a message, an App Home or a modal holds them. */
export function BlockList({ blocks }: { blocks: readonly unknown[] }) {
  return (
    <div className="space-y-2">
      {blocks.map((value, i) => {
        const block = asObject(value);
        const type = asString(block?.type) ?? "(no type)";
        return (
          <BlockBoundary key={`${i}:${asString(block?.block_id) ?? ""}`} type={type} value={value}>
            {block ? <Block block={block} index={i} /> : <Unsupported what={`block: ${JSON.stringify(value) ?? "undefined"}`} />}
          </BlockBoundary>
        );
      })}
    </div>
  );
}
