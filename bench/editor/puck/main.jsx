// The Puck side of `npm run bench:editor`: <Puck config data> with Puck's defaults (iframe canvas,
// default plugins and header). The one addition is a "Move up"/"Move down" pair in the component
// action bar through Puck's documented `overrides.actionBar`, since Puck 0.23 has no move control
// of its own besides drag and drop; both dispatch Puck's own "move" action.
import { createRoot } from "react-dom/client";
import { ActionBar, Puck, useGetPuck } from "@puckeditor/core";
import "@puckeditor/core/puck.css";
import { benchData, config } from "./config.jsx";

const n = Number(new URLSearchParams(location.search).get("n") ?? 20);
const data = benchData(n);

function MoveActions() {
  const getPuck = useGetPuck();
  const move = (delta) => {
    const { appState, dispatch } = getPuck();
    const sel = appState.ui.itemSelector;
    if (!sel || sel.zone === undefined) return;
    const zone = sel.zone;
    const count = zone === "root:default-zone" ? appState.data.content.length : Infinity;
    const to = sel.index + delta;
    if (to < 0 || to >= count) return;
    dispatch({ type: "move", sourceIndex: sel.index, sourceZone: zone, destinationIndex: to, destinationZone: zone });
    dispatch({ type: "setUi", ui: { itemSelector: { index: to, zone } } });
  };
  return (
    <>
      <ActionBar.Action label="Move up" onClick={() => move(-1)}>↑</ActionBar.Action>
      <ActionBar.Action label="Move down" onClick={() => move(1)}>↓</ActionBar.Action>
    </>
  );
}

// Puck's DefaultActionBar (label group, actions group) with the move pair in front of its actions.
const overrides = {
  actionBar: ({ children, label, parentAction }) => (
    <ActionBar>
      <ActionBar.Group>
        {parentAction}
        {label && <ActionBar.Label label={label} />}
      </ActionBar.Group>
      <ActionBar.Group>
        <MoveActions />
        {children}
      </ActionBar.Group>
    </ActionBar>
  ),
};

createRoot(document.getElementById("root")).render(<Puck config={config} data={data} overrides={overrides} />);
