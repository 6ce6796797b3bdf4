//! The [`Diagram`] picture kind: boxes ([`Node`]s) with a label and a note, placed by a layout hint
//! ([`Spot`]: a level and an order within it, or the centre and bearings around it), and labelled
//! [`Arrow`]s between them. What a rule set draws as a picture of its scenario (who acts on whom, and with
//! what chance); the plot layer lays it out and draws it.

/// Boxes and labelled arrows. A diagram whose nodes stand on levels is drawn level by level from the top;
/// one with a [`Spot::Centre`] is drawn around it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Diagram {
    pub title: String,
    /// Lines of text under the title: how to read the picture.
    pub notes: Vec<String>,
    pub nodes: Vec<Node>,
    pub arrows: Vec<Arrow>,
}

/// One box: its id (what arrows name), its label in bold and a note under it, where it stands and its tone.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub id: String,
    pub label: String,
    pub note: String,
    pub spot: Spot,
    pub tone: Tone,
}

/// Where a node stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Spot {
    /// On level `level` (0 drawn at the top), `order`-th from the left among the nodes of that level.
    Level { level: u32, order: u32 },
    /// In the middle of the picture.
    Centre,
    /// Around the centre, `bearing` degrees clockwise from straight up.
    Around { bearing: f64 },
}

/// How a node is coloured: one of the two sides, a place where they meet, or a force that takes no part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tone {
    #[default]
    First,
    Second,
    Place,
    Idle,
}

/// An arrow from one node to another, with a label of one or more lines; a faint arrow is drawn dashed.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    pub from: String,
    pub to: String,
    pub label: Vec<String>,
    pub faint: bool,
}

impl Diagram {
    /// The node whose id is `id`.
    pub fn node(&self, id: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }
}
